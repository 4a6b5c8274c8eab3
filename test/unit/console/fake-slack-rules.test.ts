import { describe, expect, it } from 'vitest';
import { compareTs, historyPage, parseMetadata } from '../../../src/console/fake-slack-rules.js';

describe('compareTs', () => {
  it('orders timestamps by seconds, then by the sequence, without losing digits', () => {
    expect(compareTs('1772445600.000010', '1772445600.000009')).toBe(1);
    expect(compareTs('1772445600.999999', '1772445601.000000')).toBe(-1);
    expect(compareTs('9.5', '10.1')).toBe(-1);
    expect(compareTs('12.5', '12.500000')).toBe(0);
  });
});

describe('historyPage', () => {
  const messages = ['1.000001', '1.000002', '2.000001'].map((ts) => ({ ts }));

  it('treats limit 0 as the default and caps large limits at 999', () => {
    const page = historyPage(messages, { limit: '0' });
    expect('messages' in page && page.messages.map((m) => m.ts)).toEqual(['2.000001', '1.000002', '1.000001']);
    const many = Array.from({ length: 1200 }, (_, i) => ({ ts: `${i + 1}.000000` }));
    const capped = historyPage(many, { limit: 5000 });
    expect('messages' in capped && [capped.messages.length, capped.has_more]).toEqual([999, true]);
  });
});

describe('parseMetadata', () => {
  it('accepts an object payload of any shape under a named event type', () => {
    expect(parseMetadata('{"event_type":"a","event_payload":{"x":[1,{"y":true}]}}')).toEqual({
      metadata: { event_type: 'a', event_payload: { x: [1, { y: true }] } },
    });
    expect(parseMetadata(['not', 'an', 'object'])).toEqual({ error: 'invalid_metadata_format' });
  });
});
