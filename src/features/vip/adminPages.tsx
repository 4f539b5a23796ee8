import { Hono } from "hono";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import AdminVipPlans from "#islands/admin/AdminVipPlans.tsx";
import { listPlans } from "./plans.ts";

// 用户管理 → VIP 管理 (spec §2 /admin/user/vip): the plans /joinvip sells. What VIP grants is set in
// VIP 设置 (/admin/config/vip).
export const vipAdminPages = new Hono<AppEnv>();

vipAdminPages.get("/admin/user/vip", adminPage, (c) => {
  const initial = listPlans().map(({ id, title, months, price, original_price, benefits, enable, sort }) => ({ id, title, months, price, original_price, benefits, enable, sort }));
  return renderAdmin(c, {
    title: "VIP 管理",
    active: "user/vip",
    children: (
      <section className="adm-card">
        <div className="adm-intro">
          <p>会员在 <a href="/joinvip" target="_blank" rel="noopener">VIP 购买页</a> 按套餐购买，可一次购买多份，到期时间从当前到期日（或现在）往后顺延。价格以元填写，精确到分。VIP 享有的下载、AI 额度等权益在 <a href="/admin/config/vip">VIP 设置</a> 中配置。</p>
        </div>
        <Island name="AdminVipPlans" component={AdminVipPlans} props={{ initial }} />
      </section>
    ),
  });
});
