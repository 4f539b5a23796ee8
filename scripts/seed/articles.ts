// Demo articles, published by the root administrator through the article service (so they are
// rendered, indexed and counted exactly like a member's). Fixed identifiers keep reruns idempotent
// and give the footer's about/agreement links a stable target.
import { eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { article } from "#db/schema/articles.ts";
import { user } from "#db/schema/users.ts";
import { createArticle } from "#src/features/articles/service.ts";

interface DemoArticle { identifier: string; category: string; title: string; keywords: string; content: string }

const ARTICLES: DemoArticle[] = [
  {
    identifier: "about",
    category: "站点公告",
    title: "关于我们",
    keywords: "文库,关于",
    content: `## 一个人人可用的文档库

魔豆文库是一个自托管的中文文档分享平台：浏览、搜索和在线阅读文档与文章，上传文档赚取积分，收藏、下载，充值积分或开通 VIP，还可以向 AI 提问，答案会注明出自哪篇文档的哪一页。

## 我们坚持的几件事

- **快**：页面在服务器端渲染，文档页图片按需加载；
- **可靠**：所有数据保存在一个 SQLite 数据库里，支持在线备份；
- **安全**：上传的文件按内容识别格式，用户发布的内容都会经过过滤。

如有合作或建议，欢迎通过页脚的联系方式与我们沟通。`,
  },
  {
    identifier: "agreement",
    category: "站点公告",
    title: "用户协议",
    keywords: "用户协议,条款",
    content: `## 一、账号

1. 注册时请提供真实、有效的信息，并妥善保管密码；
2. 账号仅限本人使用，不得出借、转让或出售。

## 二、上传与发布

- 您上传的文档和发布的文章应当拥有合法的权利，不得侵犯他人的著作权；
- 不得发布违法、色情、暴力、虚假中奖或骚扰他人的内容；
- 我们有权对违规内容进行下架处理，并视情节对账号作出限制。

## 三、积分与付费

积分可以通过签到、上传文档和充值获得，用于下载付费文档。已支付的订单请在“个人中心 → 我的订单”查看。`,
  },
  {
    identifier: "upload-guide",
    category: "上传指南",
    title: "如何上传文档并获得积分",
    keywords: "上传,积分,格式",
    content: `## 支持的格式

PDF、Word（doc/docx）、PPT（ppt/pptx）、Excel（xls/xlsx）、EPUB、TXT 等常见格式都可以上传。系统会按文件**内容**识别格式，改扩展名没有用。

## 上传步骤

1. 点击右上角头像菜单中的“上传文档”；
2. 选择文件，填写标题、分类和价格（0 为免费）；
3. 提交后文档进入转换队列，转换完成即可在线阅读。

## 积分奖励

每篇文档通过审核后可获得上传奖励；您的付费文档被下载时，也会获得相应的积分收入。

\`\`\`text
提示：同一份文件只需上传一次，重复上传会秒传并直接引用已有的转换结果。
\`\`\``,
  },
  {
    identifier: "credits-and-vip",
    category: "积分与会员",
    title: "积分、充值与 VIP 权益说明",
    keywords: "积分,充值,VIP",
    content: `## 积分从哪里来

| 方式 | 说明 |
| --- | --- |
| 每日签到 | 每天签到一次获得积分 |
| 上传文档 | 文档通过审核后奖励积分 |
| 积分充值 | 按兑换比例用微信或支付宝购买 |

## 充值优惠

充值数量越多折扣越大，例如 1 元兑换 10 积分时，充值 1000 积分享受 8.5 折，只需支付 85 元。

## VIP 会员

VIP 会员可以免费（或折扣）下载付费文档，每日下载次数和 AI 提问额度更高，并且**全站无广告**。会员时长从当前到期时间起顺延，例如续费 3 个月：

$$T_{\\text{新}} = \\max(T_{\\text{现在}}, T_{\\text{到期}}) + 3\\ \\text{个月}$$`,
  },
  {
    identifier: "study-method",
    category: "学习方法",
    title: "用好文库的三个阅读习惯",
    keywords: "学习方法,阅读",
    content: `## 1. 先搜索，再细读

在搜索框输入关键词，结果会高亮命中的段落；点进文档后直接跳到相关页。

## 2. 收藏并整理

遇到有用的资料随手收藏，在“个人中心 → 我的收藏”里集中回看。

## 3. 让 AI 帮你梳理

在文档页点击“AI 问这篇文档”，可以就这篇文档提问，回答中的 [1] 等标注可以直接打开引用的那一页。`,
  },
];

/** Publishes the demo articles that do not exist yet; answers how many were created. */
export function seedArticles(categoryIds: Map<string, number>, counts: { created: number; kept: number }) {
  const admin = getDb().select({ id: user.id, is_root: user.is_root }).from(user).where(eq(user.is_root, true)).get();
  if (!admin) throw new Error("seed articles: no root administrator");
  for (const a of ARTICLES) {
    if (getDb().select({ id: article.id }).from(article).where(eq(article.identifier, a.identifier)).get()) {
      counts.kept++;
      continue;
    }
    const categoryId = categoryIds.get(a.category);
    createArticle(admin, true, {
      identifier: a.identifier, title: a.title, keywords: a.keywords, content: a.content,
      category_id: categoryId ? [categoryId] : [],
    });
    counts.created++;
  }
}

/** Footer links the demo articles fill (spec §2 footer: about, agreement). */
export const FOOTER_LINKS = [
  { category: "footer", name: "about", value: "/article/about" },
  { category: "footer", name: "agreement", value: "/article/agreement" },
];
