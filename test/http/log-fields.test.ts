import { describe, expect, it } from 'vitest';
import { loggedUrl, requestLogFields } from '../../src/http/log-fields.ts';

describe("a request's URL in the logs", () => {
  it("leaves out the hosted pages' tokens and the OAuth callback's query", () => {
    expect(loggedUrl('/approve/Abc_def-123')).toBe('/approve/<token>');
    expect(loggedUrl('/connect/Abc_def-123/start/threads')).toBe('/connect/<token>/start/threads');
    expect(loggedUrl('/connect/Abc_def-123/pages')).toBe('/connect/<token>/pages');
    expect(loggedUrl('/connect/callback/threads?code=c0de&state=s7at')).toBe('/connect/callback/threads?<redacted>');
    expect(loggedUrl('/approve/tok?x=1')).toBe('/approve/<token>?<redacted>');
    expect(loggedUrl('/reports/Abc_def-123')).toBe('/reports/<token>');
    expect(loggedUrl('/reports/Abc_def-123/report.pdf')).toBe('/reports/<token>/report.pdf');
    expect(loggedUrl('/members/accept/Abc_def-123')).toBe('/members/accept/<token>');
    expect(loggedUrl('/members/sign-in/Abc_def-123')).toBe('/members/sign-in/<token>');
    // The page that asks for a sign-in link holds none.
    expect(loggedUrl('/members/sign-in')).toBe('/members/sign-in');
    expect(loggedUrl('/members/sign-in/password')).toBe('/members/sign-in/password');
  });

  it('keeps every other URL as it is', () => {
    expect(loggedUrl('/v1/posts?status=scheduled')).toBe('/v1/posts?status=scheduled');
    expect(loggedUrl('/dashboard/posts')).toBe('/dashboard/posts');
  });

  it("gives Fastify's usual fields", () => {
    expect(requestLogFields({ method: 'GET', url: '/approve/t', host: 'example.com', ip: '203.0.113.9' })).toEqual({
      method: 'GET',
      url: '/approve/<token>',
      host: 'example.com',
      remoteAddress: '203.0.113.9',
    });
  });
});
