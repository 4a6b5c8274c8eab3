// The once-only DM a workflow step sends its person when it acted under their "Always" (steps/service.ts), one
// migration step on each engine. The execution row is the intent: `consent_notice` is 'due' when the step started
// under a consent, and one conditional UPDATE to 'sent' hands the DM to exactly one caller.

export const STEP_NOTICE_SQLITE = 'ALTER TABLE step_executions ADD COLUMN consent_notice TEXT;';

export const STEP_NOTICE_POSTGRES = 'ALTER TABLE step_executions ADD COLUMN consent_notice TEXT;';
