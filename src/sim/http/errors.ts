// Errors in the shapes GitLab's API sends: `{"message": ...}` from the API's
// own checks, `{"error": ...}` from parameter validation.

export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === 'string' ? body.message : String(body.error ?? status));
  }
}

export const unauthorized = () => new SimError(401, { message: '401 Unauthorized' });

export const forbidden = (reason?: string) =>
  new SimError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' });

/** `404 Project Not Found`, or `404 Not found` without a resource name. */
export const notFound = (resource?: string) =>
  new SimError(404, { message: resource ? `404 ${resource} Not Found` : '404 Not found' });

export const notAllowed = () => new SimError(405, { message: '405 Method Not Allowed' });

export const conflict = (message: string) => new SimError(409, { message });

/** GitLab's bad_request!(attribute) helper, wording and all. */
export const badRequest = (attribute: string) =>
  new SimError(400, { message: `400 (Bad request) "${attribute}" not given` });

/** A model validation failure: `{"message": {"field": ["problem"]}}`. */
export const invalidRecord = (errors: Record<string, string[]>) => new SimError(400, { message: errors });

export const apiError = (status: number, message: string) => new SimError(status, { message });

/** Grape's parameter validation. */
export const paramError = (message: string) => new SimError(400, { error: message });
export const missing = (name: string) => paramError(`${name} is missing`);
export const invalid = (name: string) => paramError(`${name} is invalid`);
export const notAValidValue = (name: string) => paramError(`${name} does not have a valid value`);

const REASONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusText(status: number): string {
  return REASONS[status] ?? 'Error';
}
