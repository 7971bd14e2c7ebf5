/**
 * Typed arrays that grow in place: each views a resizable ArrayBuffer (ES2024, Node 20) reserved up to a maximum,
 * of which only the bytes used are committed. A column copied into a bigger array each time it fills held the old and
 * the new at once, and left the old one as garbage outside the heap that the collector freed late: the line index
 * keeper's columns of a 500 MB transcript took twice their size that way. The TypeScript lib here does not name
 * resizable buffers yet, hence the casts.
 */
type GrowableKind = Int32ArrayConstructor | Float64ArrayConstructor | Uint8ArrayConstructor;
export type GrowableArray = Int32Array | Float64Array | Uint8Array;

interface ResizableBuffer {
  readonly byteLength: number;
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}

const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ArrayBuffer;

/** An empty array that follows its buffer's length as `reserve` grows it, up to `maxLength` elements. */
export function growableArray<K extends GrowableKind>(kind: K, maxLength: number): InstanceType<K> {
  const buffer = new ResizableArrayBuffer(0, { maxByteLength: maxLength * kind.BYTES_PER_ELEMENT });
  return new kind(buffer) as InstanceType<K>;
}

/**
 * Makes `array` (from `growableArray`) at least `length` long, `step` elements more at a time; throws a RangeError
 * past its maximum.
 */
export function reserve(array: GrowableArray, length: number, step: number): void {
  if (array.length >= length) return;
  const buffer = array.buffer as unknown as ResizableBuffer;
  const bytes = Math.max(length, array.length + step) * array.BYTES_PER_ELEMENT;
  buffer.resize(Math.max(length * array.BYTES_PER_ELEMENT, Math.min(bytes, buffer.maxByteLength)));
}
