import { clearedSessionCookie, returnTarget, sessionCookie } from '../../../shared/dashboard/http';
import { dueText } from '../../../shared/dashboard/html';
import { openBySoonestDeadline } from '../../../shared/domain/dashboard';
import type { Chargeback } from '../../../shared/domain/chargebacks';

const urls = { base: 'https://pay.example', checkout: 'https://pay.example/checkout', dashboard: 'https://pay.example/dashboard', docs: 'https://pay.example/docs' };
const now = new Date('2026-11-20T10:00:00.000Z');
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

test('dueText: days and hours, hours and minutes, minutes, overdue', () => {
  expect(dueText(at(2 * 1440 + 23 * 60 + 59), now)).toBe('due in 2 days 23 hours');
  expect(dueText(at(1440), now)).toBe('due in 1 day');
  expect(dueText(at(5 * 60 + 10), now)).toBe('due in 5 hours 10 minutes');
  expect(dueText(at(60), now)).toBe('due in 1 hour');
  expect(dueText(at(12), now)).toBe('due in 12 minutes');
  expect(dueText(at(0), now)).toBe('due in under a minute');
  expect(dueText(at(-1), now)).toBe('overdue');
});

test('returnTarget: only paths of the dashboard, else its home', () => {
  expect(returnTarget('/dashboard/refunds/rf_1', urls)).toBe('https://pay.example/dashboard/refunds/rf_1');
  expect(returnTarget('/dashboard', urls)).toBe('https://pay.example/dashboard');
  for (const elsewhere of [undefined, '', 'https://evil.example/dashboard', '//evil.example/dashboard', '/dashboard.evil', '/v1/refunds', '/dashboardx', '/dashboard/../v1', '/dashboard\\evil']) {
    expect(returnTarget(elsewhere, urls)).toBe('https://pay.example/dashboard');
  }
});

test('openBySoonestDeadline: open chargebacks only, soonest deadline first', () => {
  const chargeback = (id: string, status: Chargeback['status'], deadlineAt: string) => ({ id, status, deadlineAt }) as Chargeback;
  const sorted = openBySoonestDeadline([
    chargeback('cb_3', 'open', at(300)),
    chargeback('cb_2', 'accepted', at(1)),
    chargeback('cb_1', 'open', at(10)),
  ]);
  expect(sorted.map((item) => item.id)).toEqual(['cb_1', 'cb_3']);
});

test('session cookie: HttpOnly, SameSite=Strict, scoped to the dashboard path, Secure on https', () => {
  expect(sessionCookie('abc', urls)).toBe('dashboard_session=abc; Path=/dashboard; HttpOnly; SameSite=Strict; Secure; Max-Age=43200');
  expect(clearedSessionCookie(urls)).toBe('dashboard_session=; Path=/dashboard; HttpOnly; SameSite=Strict; Secure; Max-Age=0');
  expect(sessionCookie('abc', { ...urls, dashboard: 'http://127.0.0.1:3000/dashboard' })).not.toContain('Secure');
});
