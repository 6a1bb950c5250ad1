/**
 * The hosted approval page: what an approval link opens. The client, without an account, sees
 * the post as each account will publish it and chooses Approve or Request changes (with a
 * comment). It works without JavaScript: one form, posted back to the same address. The rules
 * are the posts module's (modules/posts/approval.ts); this file renders and checks the form.
 *
 * The form carries a CSRF token (form-guard.ts), so a page of another site cannot post a
 * decision even where it knows a link.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { now } from '../clock.ts';
import { publicBaseUrl } from '../http/public-url.ts';
import { requestOrigin } from '../http/request-origin.ts';
import { isMultiLineText } from '../http/schemas.ts';
import { textProblem } from '../http/validation.ts';
import {
  APPROVAL_LINK_LIFETIME_MS,
  type ApprovalPageDeps,
  approvalPageView,
  decideApproval,
  lookUpApprovalLink,
  MAX_APPROVAL_COMMENT_LENGTH,
} from '../modules/posts/index.ts';
import { decisionPage, donePage, type FormState } from './approval-views.tsx';
import { field } from './form.ts';
import { formGuard } from './form-guard.ts';
import { sendPage, sendProblemPage } from './page.tsx';

const CLOSED: Record<'used' | 'expired' | 'revoked' | 'unknown', { status: number; title: string; text: string }> = {
  unknown: {
    status: 404,
    title: 'This link does not work',
    text: 'The link is incomplete or was never valid. Ask whoever sent it for a new one.',
  },
  used: {
    status: 410,
    title: 'This post has been decided on already',
    text: 'This link was used to decide on the post. If you want to change your answer, ask whoever sent it for a new link.',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    text: 'Approval links work for 7 days. Ask whoever sent it for a new one.',
  },
  revoked: {
    status: 410,
    title: 'This link was withdrawn',
    text: 'Whoever sent it withdrew the link. Ask them for a new one if there is still something to approve.',
  },
};

function closedPage(reply: FastifyReply, state: keyof typeof CLOSED) {
  const page = CLOSED[state];
  return sendProblemPage(reply, page.status, page.title, page.text);
}

export function approvalPages(deps: ApprovalPageDeps): FastifyPluginAsync {
  const guard = formGuard({
    secretKey: deps.secretKey,
    config: deps.config,
    cookie: 'sb_approval',
    path: '/approve',
    purpose: 'approval-form',
    maxAgeMs: APPROVAL_LINK_LIFETIME_MS,
  });

  return async (app) => {
    await app.register(formbody);

    app.get<{ Params: { token: string } }>('/approve/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      const lookup = await lookUpApprovalLink(deps.db, token);
      if (lookup.kind === 'unknown') return closedPage(reply, 'unknown');
      if (lookup.kind === 'closed') return closedPage(reply, lookup.state);
      const view = await approvalPageView(deps, lookup.post, now(), publicBaseUrl(deps.config, request));
      if (lookup.post.approvalStatus === 'approved' || !['draft', 'awaiting_approval'].includes(lookup.post.status)) {
        return sendProblemPage(
          reply,
          409,
          'There is nothing to approve any more',
          `The post is ${lookup.post.status.replace('_', ' ')}.`,
        );
      }
      return sendPage(reply, decisionPage(view, { token, csrf: guard.issue(request, reply, token) }));
    });

    app.post<{ Params: { token: string } }>('/approve/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params;
      const form = (request.body ?? {}) as Record<string, unknown>;
      const sent = field(form.csrf);
      if (sent === null || !guard.check(request, token, sent)) {
        return sendProblemPage(
          reply,
          403,
          'Your answer could not be confirmed',
          'It did not come from the approval page in this browser. Open your link again and decide there.',
        );
      }
      const choice = field(form.decision);
      const decision = choice === 'approve' ? 'approved' : choice === 'request_changes' ? 'changes_requested' : null;
      const comment = (field(form.comment) ?? '').replace(/\r\n/g, '\n').trim();
      const lookup = await lookUpApprovalLink(deps.db, token);
      if (lookup.kind === 'unknown') return closedPage(reply, 'unknown');
      if (lookup.kind === 'closed') return closedPage(reply, lookup.state);
      const again = async (status: number, state: Partial<FormState>) =>
        sendPage(
          reply,
          decisionPage(
            await approvalPageView(deps, lookup.post, now(), publicBaseUrl(deps.config, request)),
            { token, csrf: sent, comment, ...state },
            status,
          ),
        );
      if (decision === null) return await again(422, { error: 'Choose Approve or Request changes.' });
      if (decision === 'changes_requested' && comment === '') {
        return await again(422, { error: 'Write what you would like changed, then choose Request changes.' });
      }
      // The API's rule for multi-line text: no control characters but line breaks and tabs (and
      // so no NUL, which PostgreSQL cannot store), no unpaired surrogate.
      if (textProblem(comment) !== undefined || !isMultiLineText(comment)) {
        return await again(422, {
          error: 'The comment holds characters that are not text (control characters); remove them, then decide again.',
        });
      }
      if (comment.length > MAX_APPROVAL_COMMENT_LENGTH) {
        return await again(422, {
          error: `The comment is too long: at most ${MAX_APPROVAL_COMMENT_LENGTH} characters.`,
        });
      }
      const outcome = await decideApproval(
        deps.db,
        token,
        {
          decision,
          comment: comment === '' ? null : comment,
          version: field(form.version) ?? '',
        },
        requestOrigin(request),
      );
      switch (outcome.kind) {
        case 'decided':
          request.log.info({ post_id: outcome.post.id, decision }, 'client decided on a post through an approval link');
          return sendPage(
            reply,
            donePage(
              await approvalPageView(deps, outcome.post, now(), publicBaseUrl(deps.config, request)),
              decision,
              comment || null,
            ),
          );
        case 'closed':
          return closedPage(reply, outcome.state);
        case 'changed': {
          const fresh = await lookUpApprovalLink(deps.db, token);
          if (fresh.kind !== 'open') return closedPage(reply, fresh.kind === 'closed' ? fresh.state : 'unknown');
          return sendPage(
            reply,
            decisionPage(
              await approvalPageView(deps, fresh.post, now(), publicBaseUrl(deps.config, request)),
              {
                token,
                csrf: sent,
                comment,
                notice:
                  'The post changed since you opened this page. Here it is as it is now: please look again, then decide.',
              },
              409,
            ),
          );
        }
        case 'not_awaiting':
          return sendProblemPage(
            reply,
            409,
            'There is nothing to approve any more',
            `The post is ${outcome.post.status.replace('_', ' ')}.`,
          );
      }
    });
  };
}
