// Screenshot a URL with Debian's Chromium: npx tsx apps/web/scripts/screenshot.ts <url> [out.png] [options]
// Options: --width=1440 --height=900 --full (whole page) --wait=<css selector> --click=<css selector>
//          --key=<key combo, e.g. Control+b> --scroll=<css selector>
import { launchBrowser } from '../e2e/harness/browser';

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

async function main() {
  const [url, out = '/tmp/cumulus-screenshot.png'] = process.argv
    .slice(2)
    .filter((arg) => !arg.startsWith('--'));
  if (!url) {
    console.error(
      'usage: screenshot.ts <url> [out.png] [--width= --height= --full --wait= --click= --key= --scroll=]',
    );
    process.exit(2);
  }

  const browser = await launchBrowser();

  try {
    const page = await browser.newPage({
      viewport: { width: Number(option('width') ?? 1440), height: Number(option('height') ?? 900) },
      colorScheme: 'dark',
    });
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        console.log(`[${message.type()}] ${message.text()}`);
    });
    page.on('pageerror', (error) => console.log(`[pageerror] ${error.message}`));

    await page.goto(url, { waitUntil: 'networkidle' });
    const wait = option('wait');
    if (wait) await page.waitForSelector(wait);
    const scroll = option('scroll');
    if (scroll) await page.locator(scroll).scrollIntoViewIfNeeded();
    const click = option('click');
    if (click) await page.click(click);
    const key = option('key');
    if (key) await page.keyboard.press(key);
    // Let enter animations (dialogs, toasts, sidebar width) settle.
    await page.waitForTimeout(600);

    await page.screenshot({ path: out, fullPage: process.argv.includes('--full') });
    console.log(`saved ${out}`);
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
