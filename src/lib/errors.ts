// Named error factories: each carries an HTTP status and a stable code; messages are Chinese for users.
export class AppError extends Error {
  constructor(
    public status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503,
    public code: string,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message = "请求参数错误") => new AppError(400, "bad_request", message);
export const unauthorized = (message = "请先登录") => new AppError(401, "unauthorized", message);
export const forbidden = (message = "没有权限进行此操作") => new AppError(403, "forbidden", message);
export const notFound = (message = "This page could not be found") => new AppError(404, "not_found", message);
export const conflict = (message: string) => new AppError(409, "conflict", message);
export const payloadTooLarge = (message = "请求内容过大") => new AppError(413, "payload_too_large", message);
export const tooManyRequests = (message = "操作过于频繁，请稍后再试") => new AppError(429, "too_many_requests", message);
export const internal = (message = "服务器内部错误") => new AppError(500, "internal", message);
/** An upstream service (a payment gateway) refused or could not be reached. */
export const badGateway = (message = "上游服务暂时不可用，请稍后重试") => new AppError(502, "bad_gateway", message);
/** The database is held by another writer; the request may simply be repeated. */
export const serviceBusy = (message = "系统繁忙，请稍后重试") => new AppError(503, "busy", message);
