// `bun run seed`: demo site content in DATA_DIR's database — category trees, navigation, friend
// links, banners, ads, a few settings — and the root administrator if there is none yet.
// Idempotent: every row is looked up by its natural key first, and settings an admin already
// changed are left alone. Demo documents are the real sample files of assets/samples, uploaded and
// converted through the product's own path (seed/documents.ts); nothing is faked.
import { and, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { config } from "#db/schema/config.ts";
import { advertisement, attachment, banner, category, friendlink, navigation } from "#db/schema/site.ts";
import { bootDatabase } from "#src/boot.ts";
import { env } from "#src/env.ts";
import { storeImage } from "#src/features/admin/attachment/storage.ts";
import { ensureRootAdmin } from "#src/features/auth/users.ts";
import { updateConfig } from "#src/features/settings/service.ts";
import { isBuilt } from "#src/features/site/sections.ts";
import { BANNER_THEMES, drawBanner } from "./seed/banners.ts";
import { seedDocuments } from "./seed/documents.ts";
import { FOOTER_LINKS, seedArticles } from "./seed/articles.ts";

type Tree = [title: string, description: string, children?: Tree[]];

const DOC_CATEGORIES: Tree[] = [
  ["教育培训", "从中小学到大学、考试认证与职业培训的学习资料", [
    ["中小学教育", "课件、教案、试卷与习题"], ["高等教育", "大学课程讲义、论文与考研资料"],
    ["考试认证", "公务员、教师资格、计算机等级与职业资格考试"], ["职业培训", "岗位技能与企业内训资料"],
  ]],
  ["专业资料", "各行业的专业文献与技术资料", [
    ["IT/计算机", "编程开发、网络运维与数据库"], ["工程科技", "建筑、机械、电子与化工"],
    ["经济管理", "财务会计、市场营销与企业管理"], ["医药卫生", "临床医学、药学与护理"], ["法律法规", "法律条文、司法解释与案例"],
  ]],
  ["实用文档", "拿来即用的工作与生活文书", [
    ["合同协议", "劳动、租赁、买卖等合同范本"], ["工作总结", "年度、季度与个人工作总结"],
    ["求职简历", "简历模板、求职信与面试技巧"], ["计划方案", "工作计划、活动策划与实施方案"], ["表格模板", "常用办公表格与统计模板"],
  ]],
  ["生活休闲", "衣食住行与兴趣爱好", [
    ["美食烹饪", "菜谱与烹饪技巧"], ["旅游出行", "攻略与行程规划"], ["健康养生", "运动、饮食与心理健康"], ["兴趣爱好", "摄影、书法、音乐与手工"],
  ]],
];

const ARTICLE_CATEGORIES: Tree[] = [
  ["站点公告", "网站动态与重要通知"],
  ["使用帮助", "上传、下载、积分与会员的说明", [["上传指南", "支持的格式与上传须知"], ["积分与会员", "积分获取、充值与 VIP 权益"]]],
  ["行业资讯", "教育、出版与数字阅读行业动态"],
  ["学习方法", "高效阅读与备考经验"],
];

const FRIEND_LINKS = [
  ["国家智慧教育公共服务平台", "https://www.smartedu.cn/"],
  ["中国大学MOOC", "https://www.icourse163.org/"],
  ["开源中国", "https://www.oschina.net/"],
  ["魔豆文库开源项目", "https://github.com/mnt-ltd/moredoc"],
  ["Bun", "https://bun.sh/"],
] as const;

// Banners, ads and navigation that link into a section not built yet (sections.ts) are left out
// until it exists; a later run adds them then.
const BANNERS = [
  { title: "海量文档，免费在线阅读", url: "/category" },
  { title: "上传文档赚积分，分享知识得回报", url: "/upload" },
  { title: "开通 VIP 会员，畅享无广告阅读与免费下载", url: "/joinvip" },
].filter((b) => isBuilt(b.url));

const ADS = [
  {
    title: "底部通栏：VIP 会员推广",
    position: "global_bottom",
    content: '<a href="/joinvip" style="display:block;padding:14px 20px;border-radius:8px;background:linear-gradient(90deg,#fff7e6,#ffe7ba);color:#ad6800;text-align:center;text-decoration:none">开通 VIP 会员：免广告阅读、文档免费下载，<strong>立即开通 »</strong></a>',
  },
  {
    title: "首页广告位 1：上传激励",
    position: "index_1",
    content: '<a href="/upload" style="display:block;padding:16px 20px;border-radius:8px;background:#f0f5ff;color:#1d39c4;text-decoration:none"><strong>上传文档赚积分</strong><br><span style="font-size:13px;opacity:.8">每篇通过审核的文档都能获得积分奖励，积分可用于下载付费文档。</span></a>',
  },
].filter((a) => [...a.content.matchAll(/href="([^"]*)"/g)].every((m) => isBuilt(m[1]!)));

const SETTINGS = [
  { category: "system", name: "sitename", value: "魔豆文库" },
  { category: "system", name: "copyright_start_year", value: 2021 },
  // The about and agreement links point at demo articles (scripts/seed/articles.ts).
  ...FOOTER_LINKS,
];

const counts = { created: 0, kept: 0 };
const tally = <T>(row: T | undefined, create: () => T): T => {
  if (row) {
    counts.kept++;
    return row;
  }
  counts.created++;
  return create();
};

function seedCategories(type: 0 | 1, nodes: Tree[], parentId = 0): Map<string, number> {
  const ids = new Map<string, number>();
  nodes.forEach(([title, description, children], sort) => {
    const row = tally(
      getDb().select().from(category).where(and(eq(category.type, type), eq(category.parent_id, parentId), eq(category.title, title))).get(),
      () => getDb().insert(category).values({ type, parent_id: parentId, title, description, sort }).returning().get(),
    );
    ids.set(title, row.id);
    if (children) for (const [k, v] of seedCategories(type, children, row.id)) ids.set(k, v);
  });
  return ids;
}

function seedNavigation(docCats: Map<string, number>) {
  const entry = (title: string, href: string, extra: { color?: string; target?: string; parent_id?: number; sort: number }) =>
    isBuilt(href) && tally(
      getDb().select().from(navigation).where(and(eq(navigation.parent_id, extra.parent_id ?? 0), eq(navigation.title, title))).get(),
      () => getDb().insert(navigation).values({ title, href, ...extra }).returning().get(),
    );
  entry("VIP 会员", "/joinvip", { color: "#d48806", sort: 1 });
  const study = entry("学习专区", "/category", { sort: 2 });
  if (study) ["考试认证", "高等教育", "求职简历"].forEach((t, i) => entry(t, `/category/${docCats.get(t)}`, { parent_id: study.id, sort: i }));
  entry("上传文档", "/upload", { sort: 3 });
  entry("开源项目", "https://github.com/mnt-ltd/moredoc", { color: "#cf1322", target: "_blank", sort: 4 });
}

async function seedBanners() {
  for (const [i, b] of BANNERS.entries()) {
    const existing = getDb().select().from(banner).where(and(eq(banner.type, 0), eq(banner.title, b.title))).get();
    if (existing) {
      counts.kept++;
      continue;
    }
    const png = drawBanner(BANNER_THEMES[i % BANNER_THEMES.length]!);
    const file = new File([png], `banner-${i + 1}.png`, { type: "image/png" });
    const att = await storeImage(file, "banner", { userId: 0, ip: "127.0.0.1" });
    const row = getDb().insert(banner).values({ title: b.title, path: att.path, url: b.url, type: 0, sort: i }).returning().get();
    getDb().update(attachment).set({ type_id: row.id }).where(eq(attachment.id, att.id)).run();
    counts.created++;
  }
}

function seedSettings() {
  const stored = new Set(getDb().select({ category: config.category, name: config.name }).from(config).all().map((r) => `${r.category}.${r.name}`));
  const missing = SETTINGS.filter((s) => !stored.has(`${s.category}.${s.name}`));
  if (missing.length) updateConfig(missing);
  counts.created += missing.length;
  counts.kept += SETTINGS.length - missing.length;
}

if (import.meta.main) {
  bootDatabase();
  const docCats = seedCategories(0, DOC_CATEGORIES);
  const articleCats = seedCategories(1, ARTICLE_CATEGORIES);
  seedNavigation(docCats);
  for (const [sort, [title, link]] of FRIEND_LINKS.entries()) {
    tally(getDb().select().from(friendlink).where(eq(friendlink.link, link)).get(), () => getDb().insert(friendlink).values({ title, link, sort }).returning().get());
  }
  await seedBanners();
  for (const ad of ADS) {
    tally(getDb().select().from(advertisement).where(and(eq(advertisement.position, ad.position), eq(advertisement.title, ad.title))).get(),
      () => getDb().insert(advertisement).values(ad).returning().get());
  }
  seedSettings();
  // Documents need the administrator as their uploader.
  const admin = await ensureRootAdmin(env.ADMIN_USERNAME, env.ADMIN_PASSWORD);
  await seedDocuments(docCats, counts);
  seedArticles(articleCats, counts);
  console.log(`演示数据：新增 ${counts.created} 项，已存在 ${counts.kept} 项（数据目录 ${env.DATA_DIR}）`);

  if (admin) {
    const password = admin.password ?? env.ADMIN_PASSWORD!;
    const line = "=".repeat(52);
    console.log(`\n${line}\n  管理员账号  用户名：${admin.username}\n              密  码：${password}${admin.generated ? "\n  （随机生成，请妥善保存，登录后可在个人中心修改）" : ""}\n${line}\n`);
  } else {
    console.log("管理员账号已存在；忘记密码可运行：bun scripts/admin.ts password <用户名>");
  }
}
