import type { ReactNode } from "react";
import { listConfig, setting } from "#src/features/settings/service.ts";
import type { AppContext } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import AdminConfigForm from "#islands/admin/AdminConfigForm.tsx";
import AdminWechatpayCert from "#islands/admin/AdminWechatpayCert.tsx";

// /admin/config/pay: the payment group (gateways, keys, order expiry), the WeChat Pay certificate
// check and the recharge group (exchange rate, discount tiers) on one screen.

const PAYMENT_HELP: Record<string, string> = {
  order_expire_minutes: "超时未支付的订单自动关闭，并同时在支付平台关单",
  wechatpay_api_v3_key: "商户平台「API 安全」中设置的 32 位 APIv3 密钥，用于解密支付通知",
  wechatpay_serial_no: "商户 API 证书（apiclient_cert.pem）的序列号",
  wechatpay_private_key: "apiclient_key.pem 的全部内容；保存后不再显示",
  wechatpay_public_key_id: "填写公钥 ID 与公钥即使用「微信支付公钥」验签；两项都留空则使用平台证书模式（自动下载平台证书）",
  wechatpay_base_url: "默认 https://api.mch.weixin.qq.com；测试时可改为沙箱或模拟服务的地址",
  alipay_private_key: "应用私钥（RSA2），PEM 或去掉首尾行的单行内容；保存后不再显示",
  alipay_public_key: "支付宝公钥（不是应用公钥），用于验证支付宝的响应和异步通知",
  alipay_gateway: "默认 https://openapi.alipay.com/gateway.do；沙箱为 https://openapi-sandbox.dl.alipaydev.com/gateway.do",
};

const RECHARGE_HELP: Record<string, string> = {
  credit_exchange: "1 元可兑换的积分数；充值数量必须是它的整数倍",
  recharge_discount: "每行一档「积分数量:折扣」，如 1000:0.85 表示一次充值满 1000 积分打 8.5 折，取满足条件的最低折扣；任何一行格式不对时全部不打折",
};

/** Where the gateways send their notifications (the same origin rule the order code uses). */
function notifyBase(c: AppContext): string {
  const domain = String(setting("system", "domain") || "").trim().replace(/\/+$/, "");
  return `${domain || new URL(c.req.url).origin}/api/v1/payment/notify`;
}

export function payScreen(c: AppContext): ReactNode {
  const base = notifyBase(c);
  return (
    <>
      <section className="adm-card" aria-labelledby="pay-payment">
        <h2 className="adm-card-title" id="pay-payment">支付设置</h2>
        <div className="adm-intro">
          <p>
            异步通知地址随每次下单发送给支付平台，无需在平台另行填写：微信支付 <code className="adm-break">{`${base}/wechatpay`}</code>，支付宝 <code className="adm-break">{`${base}/alipay`}</code>。
            {setting("system", "domain") ? null : "尚未在「系统设置」填写网站域名，目前按本次访问的地址生成，正式使用前请填写。"}
          </p>
          <p>密钥类配置保存后不再显示，输入框留空保存会保留原值。</p>
        </div>
        <Island name="AdminConfigForm" component={AdminConfigForm} props={{ category: "payment", items: listConfig(["payment"]), help: PAYMENT_HELP }} />
      </section>
      <section className="adm-card" aria-labelledby="pay-cert">
        <h2 className="adm-card-title" id="pay-cert">微信支付证书</h2>
        <Island name="AdminWechatpayCert" component={AdminWechatpayCert} props={{}} />
      </section>
      <section className="adm-card" aria-labelledby="pay-recharge">
        <h2 className="adm-card-title" id="pay-recharge">充值设置</h2>
        <Island name="AdminConfigForm" component={AdminConfigForm} props={{ category: "recharge", items: listConfig(["recharge"]), help: RECHARGE_HELP }} />
      </section>
    </>
  );
}
