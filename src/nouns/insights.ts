import { drawChart } from '../insights/chart.js';
import type { InsightsReport } from '../insights/report.js';
import { createInsightsOperations } from '../operations/insights.js';
import { buildInsightsCard, buildInsightsProgress } from '../views/insights.js';
import { noun } from './types.js';

// `/gl insights [<project>] [--days 30] [--ref r] [--env e]`: the card and its chart, uploaded with the answer (into
// the channel with --share, otherwise into the person's DM). A read that takes longer than a moment shows a note first.

const insightsNoun = noun('insights', (deps) => createInsightsOperations(deps));

/** The chart's file name: `insights-demo-web-30d.png`. */
const fileName = (r: InsightsReport) => `insights-${r.project.path.replace(/[^\w.-]+/g, '-')}-${r.days}d.png`;

export const insights = insightsNoun.define({
  commands: {
    async insights(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const query = { days: command.flags.days, ref: command.flags.ref, env: command.flags.env };
      const share = command.share;
      // A slow read shows what it is reading, then the answer takes its place (slack/web-api/working-note.ts).
      ctx.workingOn?.(buildInsightsProgress(project.path ?? String(project.key), query.days));
      const report = await ops.report(ctx, project, query);
      const versus = `vs the ${report.days} days before`;
      if (report.health.weeks.every((w) => w.pipelines === 0 && w.deployments === 0)) {
        // Nothing to draw: the card alone says so.
        return {
          kind: 'message',
          message: buildInsightsCard(report, { versus, chart: null, project }),
          inChannel: share,
        };
      }
      const where = share ? 'posted with this answer' : 'in your direct message with the bot';
      const chart = await drawChart({
        project: report.project.path,
        environment: report.environment,
        ref: report.health.ref,
        weeks: report.health.weeks,
      });
      return {
        kind: 'upload',
        file: {
          filename: fileName(report),
          title: `Insights: ${report.project.path}`,
          content: chart.png,
          altText: chart.altText,
        },
        message: buildInsightsCard(report, { versus, chart: where, project }),
        inChannel: share,
      };
    },
  },
});
