/**
 * Insights: the accounts whose figures the service reads, each leading to its charts
 * (account.tsx); a post's figures are on a screen of their own (post.tsx).
 */
import { all } from '../../api.ts';
import { INSIGHT_PLATFORMS } from '../../platforms.ts';
import { accountLabel } from '../../resources.ts';
import { PATHS } from '../../session.ts';
import { Empty, ErrorNotice, Progress, useLoad } from '../../ui.tsx';

export function InsightsScreen() {
  const accounts = useLoad(() => all('/v1/accounts', {}), []);
  const withInsights = (accounts.data ?? []).filter((a) => INSIGHT_PLATFORMS.includes(a.platform));
  return (
    <main id="main">
      <h1>Insights</h1>
      <p class="muted">Daily figures of Instagram and Threads accounts (TikTok and Facebook Pages have none here).</p>
      <ErrorNotice error={accounts.error} />
      {accounts.loading && !accounts.data ? <Progress label="Loading accounts…" /> : null}
      {accounts.data && withInsights.length === 0 ? <Empty>No Instagram or Threads account yet.</Empty> : null}
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
