/**
 * @jest-environment node
 */
// Node's own Blob, DecompressionStream and web streams: the browser's inflation path, for real.
import { gzipSync } from 'zlib';
import {
  MAX_CODE_CHARS,
  MAX_GRAPH_NODES,
  boundedGraph,
  boundedText
} from '../model/bounds';
import { Graph } from '../model/types';
import {
  MAX_INFLATED_BYTES,
  MAX_INFLATE_RATIO,
  PackedTooLarge,
  inflateGzip,
  inflateLimit,
  readBounded,
  unpack
} from '../model/unpack';

function chunks(sizes: number[]): {
  stream: ReadableStream<Uint8Array>;
  pulled: () => number;
  cancelled: () => boolean;
} {
  let index = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (index < sizes.length) {
          controller.enqueue(new Uint8Array(sizes[index++]).fill(7));
        } else {
          controller.close();
        }
      },
      cancel() {
        cancelled = true;
      }
    },
    { highWaterMark: 0 }
  );
  return { stream, pulled: () => index, cancelled: () => cancelled };
}

function packedDocument(json: string): Record<string, unknown> {
  return {
    schema: 'tcexplore/1',
    packed: {
      encoding: 'gzip+base64',
      data: gzipSync(Buffer.from(json)).toString('base64')
    }
  };
}

describe('bounded inflation', () => {
  it('allows 200x the packed size, and never more than 128 MiB', () => {
    expect(inflateLimit(1000)).toBe(MAX_INFLATE_RATIO * 1000);
    expect(inflateLimit(4 * 1024 * 1024)).toBe(MAX_INFLATED_BYTES);
    expect(MAX_INFLATED_BYTES).toBe(128 * 1024 * 1024);
  });

  it('reads a stream within the limit whole, in order', async () => {
    const { stream } = chunks([3, 4, 5]);
    const bytes = await readBounded(stream, 12);
    expect(bytes?.byteLength).toBe(12);
    expect(Array.from(bytes ?? []).every(b => b === 7)).toBe(true);
  });

  it('stops at the first chunk past the limit and cancels the stream', async () => {
    const source = chunks(Array(1000).fill(1024));
    expect(await readBounded(source.stream, 10 * 1024)).toBeNull();
    expect(source.cancelled()).toBe(true);
    expect(source.pulled()).toBeLessThanOrEqual(12);
  });

  it('inflates a real packed document within its limit', async () => {
    const doc = (await unpack(
      packedDocument(JSON.stringify({ compiles: [{ id: '0/0' }] }))
    )) as Record<string, unknown>;
    expect(doc).toEqual({ schema: 'tcexplore/1', compiles: [{ id: '0/0' }] });
  });

  it('refuses a payload that inflates past 200x its packed size, naming sizes and limit', async () => {
    const bomb = packedDocument(
      `{"compiles":"${'0'.repeat(4 * 1024 * 1024)}"}`
    );
    const packedBytes = Buffer.from(
      (bomb.packed as { data: string }).data,
      'base64'
    ).byteLength;
    expect(packedBytes * MAX_INFLATE_RATIO).toBeLessThan(4 * 1024 * 1024);
    const error = (await unpack(bomb).catch(e => e)) as Error;
    expect(error).toBeInstanceOf(PackedTooLarge);
    expect(error.message).toMatch(
      /^This tcexplore output was not unpacked: its packed compiles \(\d+\.\d KiB\) inflate to more than \d+\.\d (KiB|MiB), the limit \(200× the packed size, at most 128\.0 MiB\)/
    );
  });

  it('hands the inflater the limit computed from the packed size', async () => {
    const seen: number[] = [];
    await unpack(packedDocument('{}'), async (bytes, limit) => {
      seen.push(limit, bytes.byteLength);
      return '{}';
    });
    expect(seen[0]).toBe(inflateLimit(seen[1]));
  });

  it('inflates input of many slices whole, and rejects a corrupt stream', async () => {
    const text = JSON.stringify(
      Array.from({ length: 20000 }, (_, i) => `node_${i * 7919}`)
    );
    const packed = gzipSync(Buffer.from(text), { level: 0 });
    expect(packed.byteLength).toBeGreaterThan(4 * 16 * 1024);
    expect(await inflateGzip(packed, inflateLimit(packed.byteLength))).toBe(
      text
    );
    const corrupt = Buffer.from(packed);
    corrupt.fill(0xff, 100, 200);
    await expect(
      inflateGzip(corrupt, inflateLimit(corrupt.byteLength))
    ).rejects.toThrow();
  });

  it('the default inflater is the streaming gzip one', async () => {
    await expect(
      inflateGzip(gzipSync(Buffer.alloc(5000)), 4999)
    ).rejects.toBeInstanceOf(PackedTooLarge);
    expect(await inflateGzip(gzipSync(Buffer.from('abc')), 3)).toBe('abc');
  });
});

describe('declared sizes', () => {
  it('a graph past the node bound is drawn from its first nodes, saying so', () => {
    const nodes = Array.from({ length: MAX_GRAPH_NODES + 5 }, (_, i) => ({
      name: `n${i}`,
      op: 'call_function',
      target: 'aten.add',
      args: [],
      users: []
    }));
    const { value, note } = boundedGraph({ nodes } as unknown as Graph);
    expect(value.nodes.length).toBe(MAX_GRAPH_NODES);
    expect(note).toBe(
      "Drawn: the first 50,000 of 50,005 nodes (a view's limit)."
    );
    expect(
      boundedGraph({ nodes: nodes.slice(0, 3) } as unknown as Graph).note
    ).toBeNull();
  });

  it('a text past the character bound is cut, saying so', () => {
    const { value, note } = boundedText('x'.repeat(MAX_CODE_CHARS + 1));
    expect(value.length).toBe(MAX_CODE_CHARS);
    expect(note).toBe(
      "Shown: the first 4,000,000 of 4,000,001 characters (a view's limit)."
    );
    expect(boundedText('abc')).toEqual({ value: 'abc', note: null });
  });
});
