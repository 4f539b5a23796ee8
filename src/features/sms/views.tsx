import type { AdminTableProps } from "#islands/admin/AdminTable.tsx";
import MobileCodeForm from "#islands/account/MobileCodeForm.tsx";
import { Island } from "#src/views/Island.tsx";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { SMS_PROVIDERS } from "./settings.ts";
import { SMS_STATUSES, SMS_TYPES } from "./service.ts";

export function FindPasswordMobilePage({ interval, codeLength, captcha }: { interval: number; codeLength: number; captcha: boolean }) {
  return (
    <DefaultLayout>
      <div className="container auth-page">
        <div className="card auth-card">
          <h1>找回密码</h1>
          <p className="auth-sub muted">通过绑定的手机号接收验证码，设置新的登录密码</p>
          <Island name="MobileCodeForm" component={MobileCodeForm} props={{ mode: "findpassword" as const, interval, codeLength, redirect: "/login", captcha }} />
          <p className="auth-foot muted">
            <a href="/findpassword">通过邮箱找回密码</a>
            {" · "}
            <a href="/login">返回登录</a>
          </p>
        </div>
      </div>
    </DefaultLayout>
  );
}

/** /admin/user/sms: read-only table of sent codes, filtered by type tab, status, and a keyword. */
export function smsTable(initial: { total: number; sms: Record<string, unknown>[] }, pageSize: number): AdminTableProps {
  return {
    entity: "sms", listPath: "/sms/list", listKey: "sms", pageSize, canCreate: false, keyword: true, dateRange: "发送时间",
    initial: { total: initial.total, rows: initial.sms as AdminTableProps["initial"]["rows"] },
    tabs: { name: "type", options: [{ value: "", label: "全部" }, ...SMS_TYPES] },
    filter: { name: "status", label: "状态", options: SMS_STATUSES },
    columns: [
      { key: "id", label: "ID", width: 70 },
      { key: "mobile", label: "手机号", width: 130 },
      { key: "type", label: "类型", kind: "option", options: SMS_TYPES, width: 90 },
      { key: "status", label: "状态", kind: "option", options: SMS_STATUSES, width: 90 },
      { key: "provider", label: "服务商", kind: "option", options: SMS_PROVIDERS, width: 140 },
      { key: "error", label: "错误信息" },
      { key: "ip", label: "IP", width: 130 },
      { key: "created_at", label: "发送时间", kind: "datetime", width: 160 },
    ],
    fields: [],
    defaults: {},
  };
}
