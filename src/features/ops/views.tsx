// Server-rendered parts of the operations screens; the interactive parts are islands.
import type { ReactNode } from "react";
import { Island } from "#src/views/Island.tsx";
import { listConfig } from "#src/features/settings/service.ts";
import { pageCacheStats } from "#src/http/pageCache.ts";
import AdminBackups from "#islands/admin/AdminBackups.tsx";
import AdminCachePurge from "#islands/admin/AdminCachePurge.tsx";
import AdminConfigForm from "#islands/admin/AdminConfigForm.tsx";
import AdminMaintenance from "#islands/admin/AdminMaintenance.tsx";
import AdminRelease, { type ReleaseProps } from "#islands/admin/AdminRelease.tsx";
import type { backupList } from "./routes.tsx";
import { formatDateTime } from "#src/lib/format.ts";
import { lastUpdateCheck, productVersion, buildDate, license } from "./release.ts";
import { setting } from "#src/features/settings/service.ts";
import { enabledBannerCount, lastMaintenance } from "./service.ts";

export function backupScreen(list: ReturnType<typeof backupList>): ReactNode {
  return (
    <>
      <section className="adm-card">
        <h2 className="adm-card-title">备份文件</h2>
        <p className="adm-help">每份备份是一个 tar.gz：数据库的一致性快照（网站照常服务时生成并通过完整性检查）、上传的图片与文档文件，以及含校验和的清单。恢复请在服务器上停止网站后执行 <code>bun scripts/admin.ts restore &lt;备份文件&gt;</code>。</p>
        <Island name="AdminBackups" component={AdminBackups} props={{ initial: list }} />
      </section>
      <section className="adm-card">
        <h2 className="adm-card-title">自动备份</h2>
        <Island name="AdminConfigForm" component={AdminConfigForm} props={{ category: "backup", items: listConfig(["backup"]) }} />
      </section>
    </>
  );
}

export const releaseScreen = (release: ReleaseProps["release"], license: ReleaseProps["license"]): ReactNode => (
  <Island name="AdminRelease" component={AdminRelease} props={{ release, license }} />
);

/** Dashboard card: version, build, licence and the last update check, linking to 版本与授权. */
export function releaseCard(): ReactNode {
  const check = lastUpdateCheck();
  const rows: [string, string][] = [
    ["程序版本", productVersion()],
    ["构建时间", formatDateTime(buildDate())],
    ["开源许可", license().name || "未声明"],
    ["检查更新", check ? (check.has_update ? `发现新版本 ${check.latest}（${formatDateTime(check.at)}）` : `已是最新（${formatDateTime(check.at)}）`) : "尚未检查"],
  ];
  return (
    <section className="adm-card">
      <h2 className="adm-card-title">版本信息<a className="adm-link" href="/admin/system/release">版本与授权</a></h2>
      <dl className="adm-kv">{rows.map(([k, v]) => <div key={k}><dt>{k}</dt><dd>{v}</dd></div>)}</dl>
    </section>
  );
}

/** Dashboard card for PUT /sqlmode. */
export const maintenanceCard = (): ReactNode => <Island name="AdminMaintenance" component={AdminMaintenance} props={{ last: lastMaintenance() }} />;

/** Below the ssr settings form: the purge button. */
export const pageCacheCard = (): ReactNode => (
  <section className="adm-card">
    <h2 className="adm-card-title">清空缓存</h2>
    <p className="adm-help">路径前缀“/”只表示首页，其他前缀包含其下所有页面（如 /document 包含每篇文档页）。缓存会在内容变化（发布、编辑、修改设置）后自动失效；广告到期等不会触发刷新的变化，可手动清空。</p>
    <Island name="AdminCachePurge" component={AdminCachePurge} props={pageCacheStats()} />
  </section>
);

/** Below the miniprogram settings form: which banners the mini-programme shows and where it reads them. */
export function miniprogramCard(): ReactNode {
  const bannerType = String(setting("miniprogram", "banner_type") ?? "1");
  const count = enabledBannerCount(Number(bannerType));
  return (
    <section className="adm-card">
      <h2 className="adm-card-title">小程序横幅</h2>
      <p className="adm-help">
        {`小程序首页轮播读取类型为 ${bannerType} 的已启用横幅（当前 ${count} 个），接口：`}<code>{`GET /api/v1/banner/list?type=${bannerType}&enable=true`}</code>。
        在 <a href="/admin/banner">横幅管理</a> 中新增横幅时选择「小程序」类型。
      </p>
    </section>
  );
}
