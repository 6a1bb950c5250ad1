/**
 * The sandbox platforms' OAuth permission pages: real HTML forms with a username field,
 * one checkbox per requested permission (all ticked at first), for Facebook one per page,
 * and Allow / Cancel. Allow redirects with a single-use code that expires; Cancel with the
 * platform's `error=access_denied`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { field, fields } from '../web/form.ts';
import { sendPage } from '../web/page.tsx';
import { dialogErrorPage, type PermissionDialog, permissionPage } from './authorize-dialog.tsx';
import type { Store } from './platform.ts';
import { ensureUser, pagesOf } from './store/accounts.ts';
import { issueCode } from './store/grants.ts';

/**
 * A platform's login session in the browser: who allowed an app last on this page, kept in a
 * cookie and reused (the page asks for no login) unless the app's request forces a fresh one.
 */
export interface DialogSession {
  /** The cookie the signed-in username is kept in. */
  cookie: string;
  /** The query parameter and value that force a fresh login. */
  force: { param: string; value: string };
}

export interface DialogSpec {
  platform: string;
  /** Shown on the page: "Instagram (sandbox)". */
  label: string;
  /** The query parameter naming the app: `client_id`, or TikTok's `client_key`. */
  clientParam: 'client_id' | 'client_key';
  codeTtlMs: number;
  /** Facebook: the user also picks which of its pages to grant. */
  withPages: boolean;
  /**
   * Parameters of the app's request the page carries to its decision beside the usual ones (X's
   * PKCE `code_challenge` and `code_challenge_method`), each required: the page refuses a
   * request without one, as the platform does.
   */
  carried?: readonly string[];
  /** Where the platform keeps a login session, and how an app asks for a fresh login; absent: none kept. */
  session?: DialogSession;
  /**
   * A platform that knows its apps (X): the problem its page shows for a client id it does not
   * know, or null to go on; absent: every client id is taken.
   */
  unknownClient?(clientId: string): Promise<string | null>;
  /** Told of each code issued to an app (X counts what it saw of each app). */
  granted?(clientId: string): Promise<void>;
  /**
   * Where one page serves several platforms (Google's, for YouTube and Business Profile): the
   * platform and label the requested scopes choose; absent: `platform` and `label` always.
   */
  forScopes?(scopes: readonly string[]): { platform: string; label: string };
  /** The redirect after Allow. */
  success(
    redirectUri: URL,
    grant: { code: string; state: string | null; scopes: string[]; carried: Readonly<Record<string, string>> },
  ): string;
  /** The redirect after Cancel. */
  cancel(redirectUri: URL, state: string | null): string;
}

const USERNAME = /^[A-Za-z0-9._]{1,30}$/;

interface DialogRequest {
  clientId: string;
  redirectUri: URL;
  /** As the app sent it: the code exchange must name exactly this. */
  redirectRaw: string;
  state: string | null;
  scopes: string[];
  /** The values of the spec's `carried` parameters. */
  carried: Record<string, string>;
}

/** The request's parameters, or why the dialog cannot be shown (real platforms show an error page too). */
function parseDialog(spec: DialogSpec, params: Record<string, unknown>): DialogRequest | string {
  const clientId = field(params[spec.clientParam]);
  if (!clientId) return `${spec.clientParam} is missing`;
  const redirect = field(params.redirect_uri);
  let redirectUri: URL;
  try {
    redirectUri = new URL(redirect ?? '');
  } catch {
    return 'redirect_uri is missing or not an absolute URL';
  }
  if (redirectUri.protocol !== 'https:' && redirectUri.protocol !== 'http:') return 'redirect_uri must be http(s)';
  if ((field(params.response_type) ?? 'code') !== 'code') return 'response_type must be code';
  const scopes = (field(params.scope) ?? '')
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (scopes.length === 0) return 'scope is missing';
  const carried: Record<string, string> = {};
  for (const name of spec.carried ?? []) {
    const value = field(params[name]);
    if (!value) return `${name} is missing`;
    carried[name] = value;
  }
  return {
    carried,
    clientId,
    redirectUri,
    redirectRaw: redirect ?? '',
    state: field(params.state),
    scopes: [...new Set(scopes)],
  };
}

/** The request's parameters, or the problem its page shows: a malformed request, or an app the platform does not know. */
async function checkedDialog(spec: DialogSpec, params: Record<string, unknown>): Promise<DialogRequest | string> {
  const dialog = parseDialog(spec, params);
  if (typeof dialog === 'string' || spec.unknownClient === undefined) return dialog;
  return (await spec.unknownClient(dialog.clientId)) ?? dialog;
}

function dialogOf(
  spec: DialogSpec,
  request: DialogRequest,
  action: string,
  extra: { error?: string; signedIn?: string | null } = {},
): PermissionDialog {
  const { label, clientParam, withPages } = spec;
  const { clientId, redirectRaw, state, scopes, carried } = request;
  return { label, clientParam, withPages, clientId, redirectRaw, state, scopes, carried, action, ...extra };
}

/** The username the browser's session cookie names, if it names a valid one. */
function sessionUser(request: FastifyRequest, cookie: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, value = ''] = part.trim().split('=');
    if (name === cookie && USERNAME.test(value)) return value;
  }
  return null;
}

/** Who the page continues as: the session's user, unless there is none or the app forced a fresh login. */
function signedInUser(spec: DialogSpec, request: FastifyRequest): string | null {
  if (spec.session === undefined) return null;
  const { param, value } = spec.session.force;
  if (field((request.query as Record<string, unknown>)[param]) === value) return null;
  return sessionUser(request, spec.session.cookie);
}

/** The spec as the request's scopes choose its platform (DialogSpec.forScopes). */
function chosenBy(spec: DialogSpec, dialog: DialogRequest): DialogSpec {
  return spec.forScopes === undefined ? spec : { ...spec, ...spec.forScopes(dialog.scopes) };
}

/** GET `path` shows the dialog; POST `path` takes the decision. */
export function registerAuthorizeDialog(app: FastifyInstance, path: string, store: Store, shared: DialogSpec): void {
  app.get(path, async (request, reply) => {
    const dialog = await checkedDialog(shared, request.query as Record<string, unknown>);
    if (typeof dialog === 'string') return sendPage(reply, dialogErrorPage(dialog));
    const spec = chosenBy(shared, dialog);
    const action = request.url.split('?')[0] ?? path;
    return sendPage(reply, permissionPage(dialogOf(spec, dialog, action, { signedIn: signedInUser(spec, request) })));
  });

  app.post(path, async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    const dialog = await checkedDialog(shared, form);
    if (typeof dialog === 'string') return sendPage(reply, dialogErrorPage(dialog));
    const spec = chosenBy(shared, dialog);
    const action = request.url.split('?')[0] ?? path;
    if (field(form.decision) !== 'allow') {
      return reply.code(303).header('location', spec.cancel(dialog.redirectUri, dialog.state)).send();
    }
    const username = field(form.username)?.trim() ?? '';
    if (!USERNAME.test(username)) {
      const error = 'Enter a username: 1 to 30 letters, digits, dots or underscores.';
      return sendPage(reply, permissionPage(dialogOf(spec, dialog, action, { error }), 400));
    }
    const user = await ensureUser(store, spec.platform, username);
    if (spec.session !== undefined) {
      // The browser stays signed in as this user, on this page.
      reply.header('set-cookie', `${spec.session.cookie}=${username}; Path=${action}; HttpOnly; SameSite=Lax`);
    }
    const granted = fields(form.granted).filter((scope) => dialog.scopes.includes(scope));
    let pageIds: string[] = [];
    if (spec.withPages) {
      const chosen = new Set(fields(form.pages));
      pageIds = (await pagesOf(store, user.id)).filter((_, i) => chosen.has(String(i + 1))).map((p) => p.id);
    }
    const code = await issueCode(
      store,
      {
        platform: spec.platform,
        clientId: dialog.clientId,
        redirectUri: dialog.redirectRaw,
        accountId: user.id,
        scopes: granted,
        pageIds,
      },
      spec.codeTtlMs,
    );
    await spec.granted?.(dialog.clientId);
    return reply
      .code(303)
      .header(
        'location',
        spec.success(dialog.redirectUri, { code, state: dialog.state, scopes: granted, carried: dialog.carried }),
      )
      .send();
  });
}

/** `url` with `params` added to its query (and an optional fragment), for redirects. */
export function withParams(url: URL, params: Record<string, string | null>, fragment?: string): string {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) if (value !== null) target.searchParams.set(name, value);
  target.hash = fragment ?? '';
  return target.toString();
}

/**
 * Instagram's and Threads' dialogs behave alike: a code valid for an hour, `#_` after it,
 * and the same cancel parameters.
 */
export function metaLoginDialog(platform: string, label: string): DialogSpec {
  return {
    platform,
    label: `${label} (sandbox): allow access`,
    clientParam: 'client_id',
    codeTtlMs: 3_600_000,
    withPages: false,
    success: (uri, { code, state }) => withParams(uri, { code, state }, '_'),
    cancel: (uri, state) =>
      withParams(uri, {
        error: 'access_denied',
        error_reason: 'user_denied',
        error_description: 'The user denied your request.',
        state,
      }),
  };
}
