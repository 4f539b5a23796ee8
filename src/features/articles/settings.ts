import { s, type GroupDef } from "#src/features/settings/define.ts";

// Public: the editor tells members before they publish whether their article will wait for review.
export const ARTICLE_GROUP: GroupDef = {
  name: "article", label: "文章设置", public: true,
  settings: [
    // A member skips review only when one of their groups has 文章需审核 off (用户组); administrators never wait.
    s("enable_review", "会员发布的文章需要审核", "switch", true),
    s("max_content_length", "文章正文最大字数", "number", 50000, { min: 1000, max: 200000 }),
    s("hot_days", "热门文章统计天数（按浏览量，0 表示不限）", "number", 30, { min: 0, max: 3650 }),
  ],
};
