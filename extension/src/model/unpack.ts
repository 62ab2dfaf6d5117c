/**
 * Big documents reach the notebook with their `compiles` gzip-compressed in `packed`
 * (tcexplore/render/notebook.py). This restores the plain document.
 *
 * The renderer is `safe`: it also draws outputs of untrusted notebooks, where a few MB of
 * gzip can inflate to gigabytes. Inflation is streamed and stops at a limit relative to the
 * packed size and absolute (inflateLimit), with a one-line message, the tab responsive.
 */

/** Inflates `bytes`; past `limit` inflated bytes it stops and throws a PackedTooLarge. */
export type Inflate = (bytes: Uint8Array, limit: number) => Promise<string>;

/** Legitimate packed documents (JSON of graphs and code) inflate 5-30x; gzip of zeros ~1000x. */
export const MAX_INFLATE_RATIO = 200;
/** What a browser tab inflates at most, whatever the packed size. */
export const MAX_INFLATED_BYTES = 128 * 1024 * 1024;

export function inflateLimit(packedBytes: number): number {
  return Math.min(MAX_INFLATE_RATIO * packedBytes, MAX_INFLATED_BYTES);
}

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(1)} KiB`
    : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export class PackedTooLarge extends Error {
  constructor(packedBytes: number, limit: number) {
    super(
      `This tcexplore output was not unpacked: its packed compiles (${megabytes(packedBytes)}) inflate to ` +
        `more than ${megabytes(limit)}, the limit (${MAX_INFLATE_RATIO}× the packed size, at most ` +
        `${megabytes(MAX_INFLATED_BYTES)}). Open the saved document with tcexplore.load() in Python instead.`
    );
    this.name = 'PackedTooLarge';
  }
}

/** A stream's bytes, read chunk by chunk; past `limit` the stream is cancelled and null returned. */
export async function readBounded(
  stream: ReadableStream<Uint8Array>,
  limit: number
): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}

/**
 * Compressed bytes handed to the inflater at a time. The browser inflates a whole input chunk
 * before anything reads its output (2 GiB for 2 MiB of gzip'd zeros); deflate inflates at
 * most ~1032x, so a slice yields at most ~16 MiB, and the next is written only once read.
 */
const INPUT_SLICE = 16 * 1024;

export const inflateGzip: Inflate = async (bytes, limit) => {
  const inflater = new DecompressionStream('gzip');
  const writer = inflater.writable.getWriter();
  let stopped = false;
  const feeding = (async () => {
    for (let at = 0; at < bytes.byteLength && !stopped; at += INPUT_SLICE) {
      await writer.write(bytes.subarray(at, at + INPUT_SLICE));
    }
    if (!stopped) {
      await writer.close();
    }
  })().catch(() => undefined); // a corrupt stream's error reaches the reader too
  const inflated = await readBounded(inflater.readable, limit);
  stopped = true;
  await feeding;
  if (inflated === null) {
    throw new PackedTooLarge(bytes.byteLength, limit);
  }
  return new TextDecoder().decode(inflated);
};

function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

export async function unpack(
  data: unknown,
  inflate: Inflate = inflateGzip
): Promise<unknown> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return data;
  }
  const { packed, ...rest } = data as Record<string, unknown>;
  if (!packed || typeof packed !== 'object') {
    return data;
  }
  const { encoding, data: payload } = packed as Record<string, unknown>;
  if (encoding !== 'gzip+base64' || typeof payload !== 'string') {
    throw new Error(`unknown packing ${JSON.stringify(encoding)}`);
  }
  const bytes = base64Bytes(payload);
  const sections = JSON.parse(
    await inflate(bytes, inflateLimit(bytes.byteLength))
  );
  return { ...rest, ...sections };
}
