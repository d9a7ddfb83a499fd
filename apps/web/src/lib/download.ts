/** Hands `text` to the browser as a downloaded file named `fileName` (for answers a plain link cannot fetch). */
export function saveText(fileName: string, text: string, type = 'text/plain;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by the time the click returns; a moment more is cheap.
  window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
