/**
 * Insights: the accounts whose figures the service reads, each leading to its charts
 * (account.tsx); a post's figures are on a screen of their own (post.tsx).
 */
import { all } from '../../api.ts';
import { labelList, platforms } from '../../catalogue.ts';
import { accountLabel } from '../../resources.ts';
import { PATHS } from '../../session.ts';
import { Empty, ErrorNotice, Progress, useLoad } from '../../ui.tsx';

export function InsightsScreen() {
  const accounts = useLoad(() => all('/v1/accounts', {}), []);
  const offered = platforms().filter((p) => p.insights !== null);
  const without = platforms().filter((p) => p.insights === null);
  const withInsights = (accounts.data ?? []).filter((a) => offered.some((p) => p.platform === a.platform));
  return (
    <main id="main">
      <h1>Insights</h1>
      <p class="muted">
        Daily figures of {labelList(offered)} accounts
        {without.length > 0 ? ` (the service reads none on ${labelList(without)})` : ''}.
      </p>
      <ErrorNotice error={accounts.error} />
      {accounts.loading && !accounts.data ? <Progress label="Loading accounts…" /> : null}
      {accounts.data && withInsights.length === 0 ? <Empty>No {labelList(offered, 'or')} account yet.</Empty> : null}
      <ul>
        {withInsights.map((a) => (
          <li key={a.id}>
            <a href={PATHS.accountInsights(a.id)}>{accountLabel(a)}</a> <span class="muted small">{a.status}</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
