import { vi } from 'vitest';

/**
 * Catches what `saveText` hands the browser (jsdom has no object URLs and no downloads):
 * `const downloads = captureDownloads(); ...; await downloads.text(0); downloads.fileName(0)`.
 */
export function captureDownloads() {
  const blobs: Blob[] = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return `blob:download-${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  return {
    blobs,
    click,
    /** The name the `index`th download is saved as. */
    fileName: (index: number) => (click.mock.instances[index] as unknown as HTMLAnchorElement).download,
    /** The `index`th download's content (jsdom's Blob has no text()). */
    text: (index: number) =>
      new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.readAsText(blobs[index] as Blob);
      }),
  };
}
