// The two money gateways by payment_type (spec §3: 1 WeChat Pay, 2 Alipay). A gateway is offered
// only when its switch is on and every setting it needs is filled in.
import { alipayGateway } from "./alipay/gateway.ts";
import { GatewayError, type Gateway } from "./gateway.ts";
import { wechatPayGateway } from "./wechatpay/gateway.ts";

export type MoneyPayType = 1 | 2;

const GATEWAYS: Record<MoneyPayType, Gateway> = { 1: wechatPayGateway, 2: alipayGateway };

/** The gateway for payment_type 1 or 2, whether or not it is switched on (late notifications still need it). */
export function gatewayFor(paymentType: MoneyPayType): Gateway {
  const g = GATEWAYS[paymentType];
  if (!g) throw new GatewayError("不支持的支付方式", { paymentType });
  return g;
}

/** The money payment types a buyer can choose now, in order: [1, 2], [1], [2] or []. */
export function enabledMoneyPayTypes(): MoneyPayType[] {
  return ([1, 2] as const).filter((t) => GATEWAYS[t].enabled());
}
