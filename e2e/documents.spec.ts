/**
 * Documents and paste, end to end against the Demo gateway: a small real PDF attached with the file chooser goes
 * out in each protocol's own shape, the reply says it read it and the input tokens count its pages; an image
 * pasted from the clipboard and a PDF dropped on the conversation attach as the Attach buttons do.
 */
import AxeBuilder from '@axe-core/playwright';
import { PNG } from 'pngjs';
import { sizeText } from '../shared/documents';
import { expect, test } from './fixtures';
import { openTab, output, pickModel, status } from './helpers';

/** A minimal valid PDF (catalog, page tree, one text page each, a font, an xref table). */
function minimalPdf(pages: string[]): Buffer {
  const font = 3 + pages.length * 2;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${3 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`,
  ];
  pages.forEach((text, i) => {
    const stream = `BT /F1 12 Tf 20 50 Td (${text}) Tj ET`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents ${4 + i * 2} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`,
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    );
  });
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((o, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const REPORT = minimalPdf(['Quarterly report', 'Page two']);
/** The simulator's cost of a PDF page, as upstreams count each page's text and image (about 1,500 or more). */
const PAGE_TOKENS = 1500;

const usageInput = async (page: import('@playwright/test').Page) => {
  const text = await page.getByLabel('Usage', { exact: true }).innerText();
  return Number(/input\s*([\d,]+)/.exec(text)![1].replace(/,/g, ''));
};

for (const [tab, model] of [
  ['Messages', 'claude-sim-sonnet'],
  ['Chat Completions', 'gpt-sim-4o'],
  ['Responses', 'gpt-sim-4o'],
] as const) {
  test(`${tab}: a PDF from the file chooser reaches the Demo gateway, which names it and counts its pages`, async ({
    app,
  }) => {
    await openTab(app, tab);
    await pickModel(app, model);
    await app.getByRole('textbox', { name: 'Message' }).fill('Summarise this report');
    const chooser = app.waitForEvent('filechooser');
    await app.getByText('Attach document').click();
    await (await chooser).setFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: REPORT });
    const chip = app.getByRole('group', { name: /document 1: report\.pdf$/ });
    await expect(chip).toContainText(`report.pdf · PDF · ${sizeText(REPORT.length)}`);
    if (tab === 'Messages') {
      const { violations } = await new AxeBuilder({ page: app })
        .include('[aria-label="Conversation"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
        .analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    }
    await app.getByRole('button', { name: 'Send' }).click();
    await expect(status(app)).toContainText('complete', { timeout: 20_000 });
    await expect(output(app)).toContainText('I read the 2-page PDF "report.pdf".');
    expect(await usageInput(app)).toBeGreaterThanOrEqual(2 * PAGE_TOKENS);
  });
}

test('Messages: "Input tokens" counts an attached PDF before Send, and the usage agrees', async ({ app }) => {
  await pickModel(app, 'claude-sim-sonnet');
  const tokens = app.getByRole('status', { name: 'Input tokens' });
  await expect(tokens).toHaveText(/^Input tokens: [\d,]+ · gateway count$/);
  const count = async () => Number(/Input tokens: ([\d,]+)/.exec(await tokens.innerText())![1].replace(/,/g, ''));
  const before = await count();
  await app.getByLabel('Attach document').setInputFiles({ name: 'r.pdf', mimeType: 'application/pdf', buffer: REPORT });
  await expect.poll(count).toBeGreaterThanOrEqual(before + 2 * PAGE_TOKENS);
  await expect(tokens).toHaveText(/gateway count$/);
  const counted = await count();
  await app.getByRole('button', { name: 'Send' }).click();
  await expect(status(app)).toContainText('complete', { timeout: 20_000 });
  expect(await usageInput(app)).toBe(counted);
});

test('an image pasted from the clipboard is attached to the conversation', async ({ app }) => {
  const png = new PNG({ width: 8, height: 8 });
  png.data.fill(200);
  const b64 = PNG.sync.write(png).toString('base64');
  const region = app.getByRole('region', { name: 'Turns' });
  await expect(region.getByRole('img')).toHaveCount(0);
  await app.getByRole('textbox', { name: 'Message' }).evaluate((box, data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const clipboard = new DataTransfer();
    clipboard.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
  }, b64);
  await expect(region.getByRole('img', { name: /image 1$/ })).toBeVisible();
  await expect(app.getByRole('alert')).toHaveCount(0);
});

test('Responses: a PDF dropped on the conversation is attached as an input_file', async ({ app }) => {
  await openTab(app, 'Responses');
  await pickModel(app, 'gpt-sim-4o');
  const region = app.getByRole('region', { name: 'Turns' });
  await region.evaluate((el, data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const drag = new DataTransfer();
    drag.items.add(new File([bytes], 'dropped.pdf', { type: 'application/pdf' }));
    el.dispatchEvent(new DragEvent('dragover', { dataTransfer: drag, bubbles: true, cancelable: true }));
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: drag, bubbles: true, cancelable: true }));
  }, REPORT.toString('base64'));
  await expect(region.getByRole('group', { name: /document 1: dropped\.pdf$/ })).toBeVisible();
  await expect(app.getByRole('textbox', { name: 'Request JSON' })).toContainText('"type": "input_file"');
});
