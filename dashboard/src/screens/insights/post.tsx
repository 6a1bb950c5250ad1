/** A published post's lifetime figures, with Sync now for its account. */
import { useRoute } from 'preact-iso';
import { answer, api } from '../../api.ts';
import { PATHS } from '../../session.ts';
import { ErrorNotice, Progress, Time, useLoad } from '../../ui.tsx';
import { metricName } from './chart.tsx';
import { MissingPermission } from './missing-permission.tsx';
import { SyncNow } from './sync-now.tsx';

export function PostInsightsScreen() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const figures = useLoad(() => answer(api.GET('/v1/posts/{id}/insights', { params: { path: { id } } })), [id]);
  const account = useLoad(
    () =>
      figures.data
        ? answer(api.GET('/v1/accounts/{id}', { params: { path: { id: figures.data.account_id } } }))
        : Promise.resolve(undefined),
    [figures.data?.account_id],
  );
  const data = figures.data;
  return (
    <main id="main">
      <p>
        <a href={PATHS.post(id)}>← The post</a>
      </p>
      <h1>Post figures</h1>
      <ErrorNotice error={figures.error} />
      {figures.loading && !data ? <Progress label="Loading figures…" /> : null}
      {data?.missing_permission ? (
        <MissingPermission permission={data.missing_permission} account={account.data} />
      ) : null}
      {data ? (
        <>
          <table>
            <caption class="visually-hidden">The post's lifetime figures</caption>
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(data.metrics).map(([metric, value]) => (
                <tr key={metric}>
                  <td>{metricName(metric)}</td>
                  <td class={value === null ? 'muted' : ''}>{value === null ? 'no data' : value.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="small muted">
            {data.synced_at ? (
              <>
                Last read <Time iso={data.synced_at} />.
              </>
            ) : (
              'Not read yet.'
            )}
          </p>
          {account.data ? <SyncNow accountId={account.data.id} onQueued={figures.reload} /> : null}
        </>
      ) : null}
    </main>
  );
}
