import { s, type GroupDef } from "#src/features/settings/define.ts";

// Public: the comment form reads the switch, the captcha flag and the length limit from here.
// enable_captcha is the one switch for the comment captcha (it used to be security.enable_captcha_comment;
// migration 0017 moved stored values, captcha/service.ts reads it from here).
export const COMMENT_GROUP: GroupDef = {
  name: "comment", label: "评论设置", public: true,
  settings: [
    s("enable", "开启评论", "switch", true),
    // A member skips review only when one of their groups has 评论需审核 off (用户组); moderators never wait.
    s("need_review", "会员的评论需要审核后显示", "switch", false),
    s("enable_captcha", "评论需要验证码", "switch", false),
    s("min_interval", "同一用户两次评论的最短间隔（秒，0 表示不限）", "number", 10, { min: 0, max: 86400 }),
    s("max_length", "评论最大字数", "number", 2000, { min: 10, max: 10000 }),
    s("allow_link", "评论中的网址显示为可点击链接", "switch", false),
  ],
};
