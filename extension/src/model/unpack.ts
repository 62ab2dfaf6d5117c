/**
 * Big documents reach the notebook with their `compiles` gzip-compressed in `packed`
 * (tcexplore/render/notebook.py). This restores the plain document.
 */

export type Inflate = (bytes: Uint8Array) => Promise<string>;

export const inflateGzip: Inflate = async bytes => {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new TextDecoder().decode(await new Response(stream).arrayBuffer()); // faster than .text()
};

function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

export async function unpack(data: unknown, inflate: Inflate = inflateGzip): Promise<unknown> {
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
  const sections = JSON.parse(await inflate(base64Bytes(payload)));
  return { ...rest, ...sections };
}
