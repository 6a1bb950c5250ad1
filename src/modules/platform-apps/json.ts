import { type Static, Type } from 'typebox';
import { Timestamp } from '../../http/schemas.ts';
import { PLATFORMS, type Platform } from '../../platforms/index.ts';

/** An owner's app as the API shows it: never its secret. */
export interface OwnerApp {
  platform: Platform;
  clientId: string;
  createdAt: Date;
  updatedAt: Date;
}

export const PlatformAppJson = Type.Object(
  {
    platform: Type.Enum(PLATFORMS, { description: "The platform's name, as GET /v1/platforms lists it (`x`)." }),
    client_id: Type.String({
      description: "The app's client id on the platform, as given. The secret is never shown.",
    }),
    deployment_fallback: Type.Boolean({
      description:
        "This service has an app of its own on the platform, which the owner's new connections there would use without this one. False: without this app, the platform cannot be connected.",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'PlatformApp', title: 'PlatformApp' },
);

export function renderPlatformApp(app: OwnerApp, deploymentFallback: boolean): Static<typeof PlatformAppJson> {
  return {
    platform: app.platform,
    client_id: app.clientId,
    deployment_fallback: deploymentFallback,
    created_at: app.createdAt.toISOString(),
    updated_at: app.updatedAt.toISOString(),
  };
}
