import { Type } from 'typebox';
import { At, Nullable } from '../../http/schemas.ts';
import { PLATFORMS } from '../../platforms/index.ts';

const Figure = (description: string) =>
  Nullable(Type.Integer({ minimum: 0 }), `${description} null: the platform reported no data (not 0).`);

const Day = (description: string) => Type.String({ format: 'date', description: `${description} YYYY-MM-DD, UTC.` });

const MissingPermission = Nullable(
  Type.String(),
  'The insights permission the account has not granted (`instagram_business_manage_insights`, `threads_manage_insights`): then every figure is null and the platform is not asked. Null when granted.',
);

export const AccountInsightsJson = Type.Object(
  {
    account_id: Type.String(),
    platform: Type.Enum(PLATFORMS),
    from: Day('First day of the range.'),
    to: Day('Last day of the range (included).'),
    metrics: Type.Record(
      Type.String(),
      Type.Object(
        {
          total: Figure(
            'The sum of the days; for `followers_count` (a count, not a flow) the last value known in the range.',
          ),
          values: Type.Array(Type.Object({ date: Day('The day.'), value: Figure("The day's figure.") }), {
            description: 'One entry per day of the range, oldest first.',
          }),
        },
        { additionalProperties: false },
      ),
      { description: "Each metric asked (all of the platform's by default), by name." },
    ),
    missing_permission: MissingPermission,
    synced_at: Nullable(At("When the account's figures were last read from the platform."), 'Null: never yet.'),
  },
  { additionalProperties: false },
);

export const PostInsightsJson = Type.Object(
  {
    post_id: Type.String(),
    account_id: Type.String({ description: 'The account whose copy of the post the figures are of.' }),
    platform: Type.Enum(PLATFORMS),
    metrics: Type.Record(Type.String(), Figure("The post's lifetime figure."), {
      description: "Each metric asked (all of the platform's by default), by name.",
    }),
    missing_permission: MissingPermission,
    synced_at: Nullable(At("When the post's figures were last read from the platform."), 'Null: never yet.'),
  },
  { additionalProperties: false },
);
