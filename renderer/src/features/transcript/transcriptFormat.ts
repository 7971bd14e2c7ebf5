import type { ImagePlaceholder } from '../../../../shared/transcript/transcriptEntry';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** A timestamp as local date and time, or nothing. */
export function formatTime(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function imageLabel(image: ImagePlaceholder): string {
  const parts = ['Image', image.mediaType, image.bytes !== null ? formatBytes(image.bytes) : 'not inline'].filter(Boolean);
  return parts.join(' · ');
}

export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 10)}…` : id;
}
