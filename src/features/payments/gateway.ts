// The one shape both payment gateways (WeChat Pay v3 Native, Alipay) take, so orders never know
// which one they talk to. Amounts are integer fen; order numbers are our out_trade_no.

export interface GatewayOrder {
  orderNo: string;
  /** what the buyer pays, in fen (> 0) */
  amount: number;
  /** shown to the buyer by the gateway ("积分充值 1000 积分") */
  description: string;
  /** the order closes at the gateway by itself at this time (ms) */
  expireAt: number;
  /** the buyer's address, when the gateway wants it */
  clientIp?: string;
  /** "pc" (desktop page / QR) or "mobile" (Alipay wap) */
  device?: "pc" | "mobile";
  /** where Alipay sends the buyer back after paying (absolute URL) */
  returnUrl?: string;
  /**
   * where the gateway posts its payment notification (absolute URL). Left out, the gateway builds
   * `${system.domain}/api/v1/payment/notify/<wechatpay|alipay>` and refuses when no domain is set.
   */
  notifyUrl?: string;
}

export type PayStart =
  /** WeChat Native and Alipay precreate: draw this as a QR code */
  | { kind: "qr"; codeUrl: string }
  /** Alipay page/wap pay: send the browser here */
  | { kind: "redirect"; url: string };

/** What the gateway says of one order. `paid` carries its own amount, to compare with ours. */
export type GatewayState =
  | { state: "paid"; transactionId: string; amount: number; paidAt: number; raw: Record<string, unknown> }
  | { state: "pending" }
  | { state: "closed" }
  | { state: "unknown" };

/** A verified, decrypted notification that a payment succeeded (or another state we ignore). */
export interface VerifiedNotify {
  orderNo: string;
  /** true only for WeChat SUCCESS / Alipay TRADE_SUCCESS or TRADE_FINISHED */
  success: boolean;
  transactionId: string;
  /** paid total, in fen */
  amount: number;
  /** when the buyer paid (ms); the time of verification when the gateway does not say */
  paidAt: number;
  raw: Record<string, unknown>;
}

/** How the notify endpoint answers the gateway (WeChat wants JSON and a status, Alipay plain text). */
export interface NotifyReply { status: number; body: string; contentType: string }

export interface Gateway {
  /** payment_type of spec §3: 1 WeChat, 2 Alipay */
  readonly paymentType: 1 | 2;
  /** configured and switched on in the payment settings */
  enabled(): boolean;
  /** creates the payment at the gateway (signed request, verified answer) */
  start(order: GatewayOrder): Promise<PayStart>;
  /** asks the gateway about an order (signed request, verified answer) */
  query(orderNo: string): Promise<GatewayState>;
  /** closes the order at the gateway; an order the gateway never saw counts as closed */
  close(orderNo: string): Promise<void>;
  /**
   * Verifies the notification's signature first (throws a GatewayError when it fails), then
   * decrypts/parses it and checks merchant and app ids against the settings. Amount and order are
   * for the caller to compare with its own order.
   */
  verifyNotify(headers: Headers, rawBody: string): Promise<VerifiedNotify>;
  /** the answer for an accepted notification, and for a refused one */
  reply(ok: boolean, message?: string): NotifyReply;
}

/** A gateway refused, answered something we could not verify, or could not be reached. Chinese message. */
export class GatewayError extends Error {
  constructor(message: string, readonly detail: Record<string, unknown> = {}) {
    super(message);
    this.name = "GatewayError";
  }
}
