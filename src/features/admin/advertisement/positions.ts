// Ad positions, spec §3: groups with their slots. Views place <AdSlot position="..."> by these values.

export interface PositionGroup { value: string; label: string; children: { value: string; label: string }[] }

export const AD_POSITIONS: PositionGroup[] = [
  { value: "global", label: "全站", children: [{ value: "global_top", label: "全站顶部" }, { value: "global_bottom", label: "全站底部" }] },
  {
    value: "index", label: "首页",
    children: [1, 2, 3, 4].map((n) => ({ value: `index_${n}`, label: `首页广告位 ${n}` })),
  },
  {
    value: "list", label: "列表页",
    children: [1, 2, 3].map((n) => ({ value: `list_${n}`, label: `列表页广告位 ${n}` })),
  },
  {
    value: "document", label: "文档页",
    children: [{ value: "document_top", label: "文档页顶部" }, { value: "document_bottom", label: "文档页底部" }, { value: "document_between", label: "文档页页间" }],
  },
  { value: "user", label: "用户主页", children: [{ value: "user_1", label: "用户主页广告位 1" }, { value: "user_2", label: "用户主页广告位 2" }] },
  {
    value: "search", label: "搜索页",
    children: [{ value: "search_top", label: "搜索页顶部" }, { value: "search_bottom", label: "搜索页底部" }, { value: "search_right", label: "搜索页右侧" }],
  },
];

export const POSITION_VALUES = AD_POSITIONS.flatMap((g) => g.children.map((c) => c.value));
export const POSITION_LABEL = new Map(AD_POSITIONS.flatMap((g) => g.children.map((c) => [c.value, c.label] as const)));
