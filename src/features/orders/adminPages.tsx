import { Hono } from "hono";
import { renderAdmin } from "#src/features/admin/page.tsx";
import { creditName } from "#src/features/settings/service.ts";
import { adminPage } from "#src/http/adminOnly.ts";
import type { AppEnv } from "#src/http/context.ts";
import { Island } from "#src/views/Island.tsx";
import AdminOrderList from "#islands/admin/AdminOrderList.tsx";
import { listOrders } from "./service.ts";

// 订单管理 (spec §2 /admin/order): every order with filters and totals, the detail drawer with the
// order's payment log, closing pending orders, deleting closed ones and 系统充值.
export const orderAdminPages = new Hono<AppEnv>();

const PAGE_SIZE = 20;

orderAdminPages.get("/admin/order", adminPage, (c) => {
  const name = creditName();
  return renderAdmin(c, {
  title: "订单管理",
  active: "order",
  children: (
    <section className="adm-card">
      <div className="adm-intro">
        <p>金额以元显示。待支付的订单可以关闭（同时在支付平台关单）；只有已关闭的订单可以删除，已支付的订单是收款记录，不能删除。{`系统充值直接为用户增加${name}，记为一笔已支付的订单。`}</p>
      </div>
      <Island name="AdminOrderList" component={AdminOrderList} props={{ initial: listOrders({ page: 1, size: PAGE_SIZE }), pageSize: PAGE_SIZE, creditName: name }} />
    </section>
  ),
  });
});
