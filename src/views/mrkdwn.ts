// Slack mrkdwn needs only &, < and > escaped; anything from the server or a person goes
// through `esc` before it is placed in a message.

export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A link whose label is escaped and whose URL cannot break out of the <…|…> syntax. */
export function link(url: string, label: string): string {
  const safeUrl = url.replace(/[<>|\s]/g, encodeURIComponent);
  return `<${safeUrl}|${esc(label).replace(/\|/g, '¦')}>`;
}

export function mention(slackUserId: string): string {
  return /^[UW][A-Z0-9]+$/.test(slackUserId) ? `<@${slackUserId}>` : esc(slackUserId);
}

export function code(text: string): string {
  return `\`${esc(text).replace(/`/g, "'")}\``;
}
