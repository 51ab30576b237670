import type { Plugin } from 'graphql-yoga';

export const READINESS_ENDPOINT = '/ready';

/**
 * /ready: 200 while `isReady` holds, else 503 with an empty body (a reason could name hosts or
 * files). yoga's useReadinessCheck also tries a URLPattern against every other request, a cost
 * each GraphQL request paid for nothing; an exact path compare is all this endpoint needs.
 */
export function useReadiness(isReady: () => Promise<boolean>): Plugin {
  return {
    async onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname !== READINESS_ENDPOINT) return;
      const ready = await isReady().catch(() => false);
      endResponse(new fetchAPI.Response(null, { status: ready ? 200 : 503 }));
    },
  };
}
