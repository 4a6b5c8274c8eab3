import type { Found } from '../delivery/kind.js';
import { projectOf } from '../gitlab/project.js';
import { drawChart } from '../insights/chart.js';
import type { InsightsReport } from '../insights/report.js';
import type { GitlabAccess } from '../operations/access.js';
import type { RequestContext } from '../operations/context.js';
import { createInsightsOperations, type InsightsQuery } from '../operations/insights.js';
import type { Digest, DigestCursor } from '../store/digest-store.js';
import { buildInsightsDigest } from '../views/insights.js';
import type { HostedImage } from './slack.js';

// The weekly insights digest (`/gl digest insights`): a digest reader like the todos' and the events', on the digest
// kind and so on the delivery kernel (claimed with a fenced lease, intent → marked post → commit, paused on a refused
// token). It reads, as the owner, the last 7 days against the 7 before (the four keys, "vs last week") and four weeks
// of pipelines and deployments for the chart, in the same capped pages as `/gl insights`, and says what it read.
//
// Where the chart goes, and why there: the chart is uploaded here, in the read, into no channel (Slack hosts the file
// and shares it nowhere), and the post shows it as an image block of the same message (`slack_file`). The post is the
// only thing that appears in the channel, and the kernel makes it once: a run killed before its post (or fenced out)
// leaves at most an unshared file nobody sees, and the next holder uploads again and posts once; a run killed after
// its post is found by its mark and committed without reading or uploading again. Uploading into the channel instead
// (after the post, or with it) would be a second thing to make once, and a file share carries no metadata to find it
// by after a kill: it would be lost or doubled. An empty week (nothing deployed, no pipeline) posts nothing and uploads
// nothing, as every digest.

/** The week the keys are about, against the week before it. */
export const INSIGHTS_DIGEST_DAYS = 7;
/** The weeks the chart draws. */
export const INSIGHTS_DIGEST_TREND_DAYS = 28;

export interface InsightsReaderDeps {
  /** Reads as the owner, through the paced transport (one judgement of 401s for the bot). */
  access: GitlabAccess;
  /** Uploads the chart without sharing it (digest/slack.ts); the post shows it by its file id. */
  hostImage: (image: HostedImage) => Promise<{ fileId: string }>;
  /** Where a chart that could not be uploaded is told (the post goes without it). */
  warn: (message: string, fields: Record<string, unknown>) => void;
}

/** What a digest row asks of the insights: a week against the week before, four weeks charted. */
export function insightsQueryOf(d: Digest): InsightsQuery {
  return {
    days: INSIGHTS_DIGEST_DAYS,
    trendDays: INSIGHTS_DIGEST_TREND_DAYS,
    env: d.environment ?? undefined,
    envMustExist: false,
  };
}

/** Things the week saw: deployments to any environment and pipelines on any ref (none: nothing is posted). */
export const weekItems = (r: InsightsReport) => r.read.deployments + r.read.pipelines;

/** `insights-demo-web-2026-11-30.png`: the project and the day of the post. */
const fileName = (r: InsightsReport, now: Date) =>
  `insights-${r.project.path.replace(/[^\w.-]+/g, '-')}-${now.toISOString().slice(0, 10)}.png`;

/** The reader of insights digests (registered in readers.ts with the others). */
export function insightsReader(
  deps: InsightsReaderDeps,
): (d: Digest, ctx: RequestContext) => Promise<Found<DigestCursor>> {
  const insights = createInsightsOperations({ access: deps.access });
  return async (d, ctx) => {
    if (!d.project) throw new Error(`insights digest #${d.id} has no project`);
    const project = projectOf(d.project.id, d.project.path);
    const report = await insights.report(ctx, project, insightsQueryOf(d));
    const since = new Date(report.window.start);
    const state = { at: ctx.now.toISOString(), keys: [] };
    const items = weekItems(report);
    if (items === 0) return { items, state, since, view: () => buildInsightsDigest(report, { project, chart: null }) };
    const chart = await drawChart({
      project: report.project.path,
      environment: report.environment,
      ref: report.health.ref,
      weeks: report.trendWeeks,
    });
    let shown: { fileId: string; altText: string } | null = null;
    try {
      const hosted = await deps.hostImage({
        filename: fileName(report, ctx.now),
        title: `Insights: ${report.project.path}`,
        png: chart.png,
        altText: chart.altText,
      });
      shown = { fileId: hosted.fileId, altText: chart.altText };
    } catch (err) {
      // The week's keys are worth posting without their picture; a week later is too late to try again.
      deps.warn('the insights chart could not be uploaded; the digest posts without it', {
        digest: d.id,
        error: err instanceof Error ? err.message : String(err),
      });
    }
    const withoutChart = () => buildInsightsDigest(report, { project, chart: null });
    if (!shown) return { items, state, since, view: withoutChart };
    // Slack may refuse an image block whose file it has not finished processing (invalid_blocks): the week's keys
    // then go without their picture rather than not at all.
    return {
      items,
      state,
      since,
      view: () => buildInsightsDigest(report, { project, chart: shown }),
      plainView: withoutChart,
    };
  };
}
