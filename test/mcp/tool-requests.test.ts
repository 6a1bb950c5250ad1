import { describe, expect, it } from 'vitest';
import { requestFor } from '../../src/mcp/server.ts';
import { buildTools } from '../../src/mcp/tools.ts';
import { markUntrusted } from '../../src/mcp/untrusted.ts';

describe('a tool call as an API request', () => {
  const plan = {
    method: 'POST' as const,
    path: '/v1/comments/{id}/reply',
    pathArguments: { id: 'comment_id' },
    query: new Set<string>(),
    body: new Set(['text']),
    idempotency: true,
    profile: true,
    untrusted: [],
  };

  it('puts path arguments in the path (encoded), body fields in the body and the rest in headers', () => {
    expect(
      requestFor(plan, { comment_id: 'cmt_1/../x', text: 'Thanks!', idempotency_key: 'k1', profile: 'acme' }),
    ).toEqual({
      method: 'POST',
      url: '/v1/comments/cmt_1%2F..%2Fx/reply',
      headers: { 'idempotency-key': 'k1', 'service-profile': 'acme' },
      body: { text: 'Thanks!' },
    });
  });

  it('refuses unknown arguments, a missing path argument and an id of dots', () => {
    expect(() => requestFor(plan, { comment_id: 'cmt_1', text: 'x', color: 'red' })).toThrow('unknown argument: color');
    expect(() => requestFor(plan, { text: 'x' })).toThrow('comment_id is required');
    expect(() => requestFor(plan, { comment_id: '..', text: 'x' })).toThrow('comment_id is not an id: ..');
  });

  it('sends query values as text and leaves out the absent ones', () => {
    const list = { ...plan, method: 'GET' as const, path: '/v1/comments', pathArguments: {}, body: null };
    list.query = new Set(['hidden', 'limit', 'cursor']);
    expect(requestFor(list, { hidden: false, limit: 20 })).toEqual({
      method: 'GET',
      url: '/v1/comments?hidden=false&limit=20',
      headers: {},
    });
  });
});

describe('building the tools from the document', () => {
  it('refuses a document that lacks an operation a tool stands for', () => {
    expect(() => buildTools({ paths: {} }, { profileArgument: true })).toThrow(
      'the OpenAPI document has no operation GET /v1/profiles',
    );
  });
});

describe('marking untrusted text', () => {
  it("encloses only the values the rules name, in a tag named with a nonce the answer doesn't hold", () => {
    const answer = {
      data: [
        { id: 'post_1', source: 'api', text: 'Our own words' },
        { id: 'post_2', source: 'platform', text: 'The client wrote this' },
      ],
    };
    const { value, tag } = markUntrusted(answer, [{ key: 'text', within: 'source', equals: 'platform' }]);
    expect(tag).toMatch(/^untrusted-[0-9a-f]{16}$/);
    expect(value).toEqual({
      data: [
        { id: 'post_1', source: 'api', text: 'Our own words' },
        { id: 'post_2', source: 'platform', text: `<${tag}>The client wrote this</${tag}>` },
      ],
    });
  });

  it("encloses a client's approval comment, where the post's approval holds one", () => {
    const post = {
      id: 'post_1',
      source: 'api',
      text: 'Ours',
      approval: { status: 'changes_requested', approval_link_id: 'apl_1', comment: 'Use the red one' },
    };
    const { value, tag } = markUntrusted(post, [{ key: 'comment', within: 'approval_link_id' }]);
    expect(value).toEqual({ ...post, approval: { ...post.approval, comment: `<${tag}>Use the red one</${tag}>` } });
  });

  it('marks nothing, and names no tag, where no rule applies', () => {
    const answer = { id: 'post_1', source: 'api', text: 'Ours', replies: [] };
    expect(markUntrusted(answer, [{ key: 'text', within: 'commented_at' }])).toEqual({ value: answer, tag: null });
  });
});
