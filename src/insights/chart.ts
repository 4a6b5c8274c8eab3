import { createRequire } from 'node:module';
import path from 'node:path';
import type { WeekHealth } from './health.js';

// The insights chart: drawn by Apache ECharts' server-side SVG renderer and rasterised to PNG by resvg. Both are
// loaded the first time a chart is drawn. Text is set in DejaVu Sans from the dejavu-fonts-ttf package, so it renders
// on a machine with no system fonts; only when that package is missing does resvg look for the system's fonts.

export interface ChartInput {
  /** `demo/web`: the chart's title names it. */
  project: string;
  environment: string | null;
  ref: string;
  weeks: readonly WeekHealth[];
}

export interface Chart {
  png: Buffer;
  /** What the chart shows, in words and numbers (Slack's alt text, at most 1000 characters). */
  altText: string;
  width: number;
  height: number;
}

/** Wide enough to stay readable in Slack's preview, which scales an image down to the message's width. */
export const CHART_SIZE = { width: 1200, height: 720 } as const;

const FONT_FAMILY = 'DejaVu Sans';
const ALT_TEXT_LIMIT = 1000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `3 Nov`: the day a week starts, in UTC. */
export const dayLabel = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
};

const days = (weeks: readonly WeekHealth[]) =>
  weeks.length === 0 ? 0 : Math.round(((weeks.at(-1) as WeekHealth).end - (weeks[0] as WeekHealth).start) / 86_400_000);
const minutes = (s: number | null) => (s === null ? null : Math.round((s / 60) * 10) / 10);
const percent = (r: number | null) => (r === null ? null : Math.round(r * 100));

/** resvg's font settings: the packaged DejaVu Sans alone, or (package missing) whatever the system has. */
export function fontOptions() {
  try {
    const require = createRequire(import.meta.url);
    const dir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    const fontFiles = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) => path.join(dir, f));
    return { loadSystemFonts: false, fontFiles, defaultFontFamily: FONT_FAMILY };
  } catch {
    return { loadSystemFonts: true, defaultFontFamily: FONT_FAMILY };
  }
}

/** The chart's words: every number it draws, week by week. */
export function chartAltText(input: ChartInput): string {
  const where = input.environment ? ` to ${input.environment}` : '';
  const parts = input.weeks.map((w) => {
    const deploys = `${w.deployments} deployment${w.deployments === 1 ? '' : 's'}${where}${w.failedDeployments ? ` (${w.failedDeployments} failed)` : ''}`;
    const rate = w.successRate === null ? 'no finished pipelines' : `${percent(w.successRate)}% of pipelines passed`;
    const time = w.medianS === null ? '' : `, median ${minutes(w.medianS)} min`;
    return `week of ${dayLabel(w.start)}: ${deploys}; ${w.pipelines} pipeline${w.pipelines === 1 ? '' : 's'} on ${input.ref}, ${rate}${time}`;
  });
  const text = `Chart of ${input.project} per week. ${parts.join('. ')}.`;
  return text.length <= ALT_TEXT_LIMIT ? text : `${text.slice(0, ALT_TEXT_LIMIT - 1)}…`;
}

/** The ECharts option: deployments per week on top, the pipelines' success rate and median duration below. */
export function chartOption(input: ChartInput) {
  const labels = input.weeks.map((w) => dayLabel(w.start));
  const text = { fontFamily: FONT_FAMILY, fontSize: 18, color: '#333' };
  const env = input.environment ?? 'no environment';
  return {
    animation: false,
    backgroundColor: '#ffffff',
    textStyle: text,
    title: {
      text: `${input.project}: the last ${days(input.weeks)} day${days(input.weeks) === 1 ? '' : 's'}, by week`,
      left: 'center',
      textStyle: { ...text, fontSize: 24, fontWeight: 'bold' },
    },
    legend: { top: 44, itemGap: 32, textStyle: text },
    grid: [
      { left: 90, right: 110, top: 110, height: 220 },
      { left: 90, right: 110, top: 440, height: 200 },
    ],
    xAxis: [
      { type: 'category', gridIndex: 0, data: labels, axisLabel: text },
      {
        type: 'category',
        gridIndex: 1,
        data: labels,
        axisLabel: text,
        name: 'week of',
        nameLocation: 'middle',
        nameGap: 36,
        nameTextStyle: text,
      },
    ],
    yAxis: [
      {
        type: 'value',
        gridIndex: 0,
        minInterval: 1,
        name: `deployments to ${env}`,
        nameTextStyle: { ...text, align: 'left' },
        axisLabel: text,
      },
      {
        type: 'value',
        gridIndex: 1,
        min: 0,
        max: 100,
        name: `pipelines on ${input.ref}: passed %`,
        nameGap: 32,
        nameTextStyle: { ...text, align: 'left' },
        axisLabel: text,
      },
      {
        type: 'value',
        gridIndex: 1,
        min: 0,
        name: 'median min',
        nameGap: 32,
        nameTextStyle: text,
        axisLabel: text,
        splitLine: { show: false },
      },
    ],
    series: [
      {
        name: 'deployed',
        type: 'bar',
        stack: 'deployments',
        xAxisIndex: 0,
        yAxisIndex: 0,
        color: '#2f7ed8',
        data: input.weeks.map((w) => w.deployments - w.failedDeployments),
      },
      {
        name: 'failed',
        type: 'bar',
        stack: 'deployments',
        xAxisIndex: 0,
        yAxisIndex: 0,
        color: '#d9534f',
        // Only weeks with failures say how many, above the bar.
        label: {
          show: true,
          position: 'top',
          ...text,
          formatter: (p: { value: unknown }) => (Number(p.value) > 0 ? `${p.value} failed` : ''),
        },
        data: input.weeks.map((w) => w.failedDeployments),
      },
      {
        name: 'pipelines passed %',
        type: 'line',
        xAxisIndex: 1,
        yAxisIndex: 1,
        color: '#3c9d4e',
        lineStyle: { width: 4 },
        symbolSize: 10,
        connectNulls: true,
        label: { show: true, position: 'top', ...text },
        data: input.weeks.map((w) => percent(w.successRate)),
      },
      {
        name: 'median duration (min)',
        type: 'line',
        xAxisIndex: 1,
        yAxisIndex: 2,
        color: '#8e6bbf',
        lineStyle: { width: 3, type: 'dashed' },
        symbolSize: 8,
        connectNulls: true,
        data: input.weeks.map((w) => minutes(w.medianS)),
      },
    ],
  };
}

/** Draws the chart as a PNG (ECharts → SVG → resvg). */
export async function drawChart(input: ChartInput): Promise<Chart> {
  const echarts = await import('echarts');
  const { width, height } = CHART_SIZE;
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  let svg: string;
  try {
    chart.setOption(chartOption(input));
    svg = chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
  return { png: await rasterize(svg, width), altText: chartAltText(input), width, height };
}

/** An SVG as a PNG `width` pixels wide, its text set in the packaged font. */
export async function rasterize(svg: string, width: number): Promise<Buffer> {
  const { Resvg } = await import('@resvg/resvg-js');
  return new Resvg(svg, { font: fontOptions(), background: '#ffffff', fitTo: { mode: 'width', value: width } })
    .render()
    .asPng();
}
