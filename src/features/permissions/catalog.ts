// How API routes become permissions (spec §6): the group ("category") is the gRPC-style service
// for such paths, else the fourth path segment; each category opens one admin page (its page group).

/** Chinese labels for permission categories and the admin page each one opens. */
export const CATEGORIES: Record<string, { label: string; page: string }> = {
  stats: { label: "统计数据", page: "/admin/dashboard" },
  envs: { label: "运行环境", page: "/admin/dashboard" },
  device: { label: "设备信息", page: "/admin/dashboard" },
  config: { label: "系统配置", page: "/admin/config" },
  navigation: { label: "导航", page: "/admin/navigation" },
  friendlink: { label: "友情链接", page: "/admin/friendlink" },
  banner: { label: "横幅", page: "/admin/banner" },
  advertisement: { label: "广告", page: "/admin/advertisement" },
  attachment: { label: "附件", page: "/admin/attachment" },
  category: { label: "分类", page: "/admin/document/category" },
  sitemap: { label: "站点地图", page: "/admin/config" },
  // The document screens share one page group: list, recycle bin and review all use /api/v1/document/*.
  document: { label: "文档", page: "/admin/document" },
  language: { label: "文档语言", page: "/admin/document/language" },
  // The article screens share one page group: list, recycle bin, review and settings use /api/v1/article/*.
  article: { label: "文章", page: "/admin/article" },
  searchrecord: { label: "搜索记录", page: "/admin/document/searchrecord" },
  upload: { label: "上传", page: "/admin/banner" },
  user: { label: "用户", page: "/admin/user/list" },
  group: { label: "用户组", page: "/admin/user/group" },
  permission: { label: "权限", page: "/admin/user/permission" },
  punishment: { label: "惩罚", page: "/admin/user/punishment" },
  sms: { label: "短信", page: "/admin/user/sms" },
  email: { label: "邮件", page: "/admin/config" },
  report: { label: "举报", page: "/admin/report" },
  comment: { label: "评论", page: "/admin/comment" },
  renew: { label: "搜索索引", page: "/admin/config" },
  chat: { label: "AI 对话", page: "/admin/ai/chat" },
  llm: { label: "大模型", page: "/admin/ai/llm" },
  embedding: { label: "向量模型", page: "/admin/ai/embedding" },
  order: { label: "订单", page: "/admin/order" },
  payment: { label: "支付记录", page: "/admin/order" },
  wechatpay: { label: "微信支付证书", page: "/admin/config/pay" },
  vip: { label: "VIP 套餐", page: "/admin/user/vip" },
  spider: { label: "蜘蛛采集", page: "/admin/spider" },
  ocr: { label: "OCR 识别", page: "/admin/document/ocr" },
  sqlmode: { label: "数据库维护", page: "/admin/dashboard" },
  backup: { label: "数据备份", page: "/admin/system/backup" },
  release: { label: "版本更新", page: "/admin/system/release" },
  license: { label: "授权信息", page: "/admin/system/release" },
  ssr: { label: "页面缓存", page: "/admin/config/ssr" },
};

/** Admin pages anyone with admin access may open (spec §6: AI management, its children, navigation). */
export const PUBLIC_ADMIN_PAGES = ["/admin/ai", "/admin/ai/llm", "/admin/ai/embedding", "/admin/ai/chat", "/admin/navigation"];

const VERBS: Record<string, string> = { GET: "查询", POST: "新增", PUT: "更新", DELETE: "删除", PATCH: "修改" };

export function categoryOf(path: string): string {
  const segs = path.split("/");
  // gRPC-gateway style paths (/api/v1/package.Service/Method) group by service.
  const grpc = segs.find((s) => /^[\w]+\.[\w]+$/.test(s));
  if (grpc) return grpc.split(".").pop()!;
  return segs[3] ?? "";
}

export function describe(method: string, path: string) {
  const category = categoryOf(path);
  const meta = CATEGORIES[category];
  const label = meta?.label ?? category;
  const tail = path.split("/").slice(4).filter((s) => !s.startsWith(":")).join("/");
  const suffix = tail === "list" ? "列表" : tail ? `（${tail}）` : "";
  return { category, page: meta?.page ?? "", title: `${VERBS[method] ?? method}${label}${suffix}` };
}

/** Whether an admin page path lies inside one of the allowed page groups. */
export const pageAllowed = (allowPages: string[], path: string) =>
  allowPages.some((p) => path === p || path.startsWith(p + "/")) || PUBLIC_ADMIN_PAGES.some((p) => path === p || path.startsWith(p + "/"));
