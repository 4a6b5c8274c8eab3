import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { CHART_SIZE, chartAltText, drawChart, fontOptions, rasterize } from '../../../src/insights/chart.js';
import type { WeekHealth } from '../../../src/insights/health.js';

const DAY = 86_400_000;
const start = Date.parse('2026-11-02T00:00:00Z');
const week = (n: number, o: Partial<WeekHealth>): WeekHealth => ({
  start: start + n * 7 * DAY,
  end: start + (n + 1) * 7 * DAY,
  pipelines: 10,
  successRate: 0.8,
  medianS: 540,
  p90S: 720,
  deployments: 4,
  failedDeployments: 1,
  ...o,
});
const weeks = [
  week(0, {}),
  week(1, { deployments: 6, failedDeployments: 0, successRate: 0.9, medianS: 600 }),
  week(2, { deployments: 2, failedDeployments: 2, successRate: 0.5, medianS: 900 }),
  week(3, { deployments: 0, failedDeployments: 0, pipelines: 0, successRate: null, medianS: null }),
];

function packageInstalled(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}

const decode = (png: Buffer) => PNG.sync.read(png);
/** Pixels that are not (near) white. */
function inked(img: PNG): number {
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    if ((img.data[i] as number) + (img.data[i + 1] as number) + (img.data[i + 2] as number) < 3 * 235) n += 1;
  }
  return n;
}

describe('the insights chart', () => {
  it('is a PNG at least 800 px wide, with bars, lines and words drawn on it', async () => {
    const chart = await drawChart({ project: 'demo/web', environment: 'production', ref: 'main', weeks });
    const img = decode(chart.png);
    expect(img.width).toBe(CHART_SIZE.width);
    expect(img.width).toBeGreaterThanOrEqual(800);
    expect(img.height).toBe(CHART_SIZE.height);
    const share = inked(img) / (img.width * img.height);
    expect(share).toBeGreaterThan(0.02);
    expect(share).toBeLessThan(0.6);
    // The failed deployments' red is there.
    let red = 0;
    for (let i = 0; i < img.data.length; i += 4) {
      if (img.data[i] === 0xd9 && img.data[i + 1] === 0x53 && img.data[i + 2] === 0x4f) red += 1;
    }
    expect(red).toBeGreaterThan(100);
  });

  it('sets its text in the DejaVu Sans of the dejavu-fonts-ttf package, without looking for system fonts', async () => {
    // A working copy whose node_modules predates the package falls back to the system's fonts; `npm ci` (CI, the
    // Dockerfile) installs it.
    const packaged = packageInstalled('dejavu-fonts-ttf/package.json');
    expect(fontOptions()).toMatchObject({ loadSystemFonts: !packaged, defaultFontFamily: 'DejaVu Sans' });
    if (process.env.CI) expect(packaged).toBe(true);
    const words = (body: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><text x="10" y="60" font-family="DejaVu Sans" font-size="40" fill="#000">${body}</text></svg>`;
    const withText = inked(decode(await rasterize(words('Deployments 42'), 400)));
    const without = inked(decode(await rasterize(words(''), 400)));
    expect(without).toBe(0);
    expect(withText).toBeGreaterThan(500);
  });

  it('carries every number it draws in its alt text', () => {
    const alt = chartAltText({ project: 'demo/web', environment: 'production', ref: 'main', weeks });
    expect(alt).toContain(
      'week of 2 Nov: 4 deployments to production (1 failed); 10 pipelines on main, 80% of pipelines passed, median 9 min',
    );
    expect(alt).toContain(
      'week of 9 Nov: 6 deployments to production; 10 pipelines on main, 90% of pipelines passed, median 10 min',
    );
    expect(alt).toContain('week of 23 Nov: 0 deployments to production; 0 pipelines on main, no finished pipelines');
    expect(alt.length).toBeLessThanOrEqual(1000);
  });
});
