// The Chinese texts of the sample documents (scripts/make-samples.ts turns them into files).
// Each page-broken sample has one phrase per page that the conversion tests look for.

const BREAK = `style="page-break-before: always"`;
const rows = (cells: string[][]) => cells.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("");

const physics = {
  title: "高中物理公式汇总",
  html: `<h1>高中物理公式汇总</h1>
<p>本资料按模块整理高中物理必修与选择性必修的核心公式，适合复习时查阅。公式中的物理量均采用国际单位制。</p>
<h2>一、运动学</h2>
<p>1. 匀变速直线运动：速度公式 v = v₀ + at，位移公式 x = v₀t + ½at²，速度位移关系 v² − v₀² = 2ax。</p>
<p>2. 平均速度：v̄ = x / t；匀变速直线运动中 v̄ = (v₀ + v) / 2，等于中间时刻的瞬时速度。</p>
<p>3. 连续相等时间间隔 T 内的位移差：Δx = aT²，常用于纸带数据处理。</p>
<p>4. 自由落体运动：v = gt，h = ½gt²，v² = 2gh，重力加速度 g 约为 9.8 m/s²。</p>
<p>5. 平抛运动：水平方向 x = v₀t，竖直方向 y = ½gt²，合速度 v = √(v₀² + g²t²)。</p>
<h2>二、牛顿运动定律</h2>
<p>1. 牛顿第二定律：F合 = ma，加速度方向与合外力方向相同。</p>
<p>2. 牛顿第三定律：作用力与反作用力大小相等、方向相反、作用在同一直线上。</p>
<p>3. 滑动摩擦力：f = μN；最大静摩擦力略大于滑动摩擦力。</p>
<p>4. 匀速圆周运动：向心加速度 a = v² / r = ω²r，向心力 F = mv² / r。</p>
<p>5. 万有引力定律：F = GMm / r²，引力常量 G = 6.67×10⁻¹¹ N·m²/kg²。</p>
<h2 ${BREAK}>三、功和能</h2>
<p>1. 功：W = Fx cosα；功率 P = W / t，瞬时功率 P = Fv cosα。</p>
<p>2. 动能：Ek = ½mv²；重力势能 Ep = mgh；弹性势能 Ep = ½kx²。</p>
<p>3. 动能定理：合外力对物体做的总功等于物体动能的变化，W合 = ΔEk。</p>
<p>4. 机械能守恒定律：只有重力或弹力做功时，Ek₁ + Ep₁ = Ek₂ + Ep₂。</p>
<p>5. 功能关系：除重力和弹力以外的力做的功等于机械能的变化量。</p>
<h2>四、动量</h2>
<p>1. 动量：p = mv；冲量：I = Ft。</p>
<p>2. 动量定理：合外力的冲量等于动量的变化，Ft = mv′ − mv。</p>
<p>3. 动量守恒定律：系统不受外力或合外力为零时，m₁v₁ + m₂v₂ = m₁v₁′ + m₂v₂′。</p>
<p>4. 弹性碰撞中动量和动能都守恒；完全非弹性碰撞后两物体速度相同，动能损失最大。</p>
<h2 ${BREAK}>五、电场与电路</h2>
<p>1. 库仑定律：F = kq₁q₂ / r²，静电力常量 k = 9.0×10⁹ N·m²/C²。</p>
<p>2. 电场强度：E = F / q；点电荷电场 E = kQ / r²；匀强电场 E = U / d。</p>
<p>3. 电容：C = Q / U；平行板电容器 C = εS / (4πkd)。</p>
<p>4. 欧姆定律：I = U / R；闭合电路欧姆定律 I = E / (R + r)。</p>
<p>5. 电功与电热：W = UIt，焦耳定律 Q = I²Rt。</p>
<h2>六、磁场与电磁感应</h2>
<p>1. 安培力：F = BIL sinθ；洛伦兹力：F = qvB，带电粒子做圆周运动半径 r = mv / (qB)。</p>
<p>2. 法拉第电磁感应定律：E = nΔΦ / Δt；导体切割磁感线 E = BLv。</p>
<p>3. 交变电流有效值：正弦交流电 U = Um / √2；理想变压器 U₁ / U₂ = n₁ / n₂。</p>
<p>复习建议：先理解公式的适用条件，再通过典型例题练习，最后整理易错点。</p>`,
};

const summary = {
  title: "年度工作总结模板",
  html: `<h1>年度工作总结</h1>
<p style="text-align:center">（模板：使用时将括号中的提示替换为实际内容）</p>
<h2>一、基本情况</h2>
<table border="1" cellspacing="0" cellpadding="4">${rows([["姓名", "（填写姓名）", "部门", "（填写部门）"], ["岗位", "（填写岗位）", "总结期间", "2024 年 1 月至 12 月"]])}</table>
<p>本年度，我在部门领导的指导和同事们的支持下，围绕部门年度目标，认真履行岗位职责，较好地完成了各项工作任务。现将全年工作情况总结如下。</p>
<h2>二、工作概述</h2>
<p>（用三到五句话概括全年工作：承担了哪些职责，参与了哪些重点项目，整体完成情况如何。）</p>
<p>示例：全年共负责客户项目 12 个，按期交付率 100%；牵头完成内部流程优化 2 项；参与新人培训 6 次。</p>
<h2 ${BREAK}>三、主要工作成绩</h2>
<p>1. 业务指标完成情况：（列出年度关键指标的目标值与实际值，例如销售额、交付量、客户满意度。）</p>
<table border="1" cellspacing="0" cellpadding="4">${rows([["指标", "年度目标", "实际完成", "完成率"], ["销售额（万元）", "500", "560", "112%"], ["新签客户（家）", "30", "34", "113%"], ["客户满意度", "90 分", "93 分", "103%"]])}</table>
<p>2. 重点项目：（说明项目背景、个人承担的工作、取得的成果，尽量用数据说话。）</p>
<p>3. 团队协作与知识分享：（参与的跨部门合作、培训、文档沉淀等。）</p>
<p>4. 个人成长：（新掌握的技能、获得的证书、阅读与学习情况。）</p>
<h2 ${BREAK}>四、存在问题与改进措施</h2>
<p>1. 问题：时间管理不够精细，个别任务在截止日前集中处理。措施：每周一制定周计划，按优先级安排工作。</p>
<p>2. 问题：对行业新技术的跟进不够及时。措施：每月阅读两篇行业报告，并在部门例会上分享。</p>
<h2>五、下一年度工作计划</h2>
<p>1. 业务目标：（写明可衡量的目标，例如销售额增长 15%。）</p>
<p>2. 能力提升：（计划参加的培训或考取的证书。）</p>
<p>3. 需要的支持：（希望公司或部门提供的资源与帮助。）</p>
<p style="text-align:right">总结人：（签名）　　日期：（年月日）</p>`,
};

const slide = (n: number, title: string, lines: string[]) => `<draw:page draw:name="第${n}页" draw:master-page-name="Default">
<draw:frame draw:style-name="gr1" svg:x="1.5cm" svg:y="1.2cm" svg:width="25cm" svg:height="2.6cm"><draw:text-box><text:p text:style-name="T">${title}</text:p></draw:text-box></draw:frame>
<draw:frame draw:style-name="gr1" svg:x="1.5cm" svg:y="4.5cm" svg:width="25cm" svg:height="13cm"><draw:text-box>${lines.map((l) => `<text:p text:style-name="B">${l}</text:p>`).join("")}</draw:text-box></draw:frame>
</draw:page>`;

const slides = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:automatic-styles>
 <style:style style:name="T" style:family="paragraph"><style:text-properties fo:font-size="32pt" fo:font-weight="bold" style:font-size-asian="32pt" style:font-weight-asian="bold" fo:color="#1a4d8f"/></style:style>
 <style:style style:name="B" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.3cm"/><style:text-properties fo:font-size="20pt" style:font-size-asian="20pt"/></style:style>
 <style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="28cm" fo:page-height="15.75cm" style:print-orientation="landscape"/></style:page-layout>
 <style:style style:name="gr1" style:family="graphic"><style:graphic-properties draw:fill="none" draw:stroke="none" draw:auto-grow-height="false" draw:textarea-vertical-align="top"/></style:style>
 <style:style style:name="dp1" style:family="drawing-page"><style:drawing-page-properties draw:fill="solid" draw:fill-color="#f5f8fc"/></style:style>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Default" style:page-layout-name="PM1" draw:style-name="dp1"/></office:master-styles>
<office:body><office:presentation>
${slide(1, "智慧文库产品介绍", ["一站式文档分享与知识管理平台", "汇报人：产品部", "2024 年 6 月"])}
${slide(2, "产品定位", ["面向中小企业与学校的私有化文库系统", "支持 PDF、Word、PPT、Excel、电子书等多种格式在线预览", "一台服务器即可部署，数据完全掌握在自己手中"])}
${slide(3, "核心功能", ["文档上传后自动转换，页面清晰、加载迅速", "全文检索：按标题、关键词和正文内容查找", "积分下载与会员体系，激励用户贡献优质内容", "后台审核、分类管理与数据统计"])}
${slide(4, "联系我们", ["电话：400-000-0000（示例号码）", "邮箱：service@example.com", "欢迎预约产品演示与试用"])}
</office:presentation></office:body></office:document>`;

const cell = (v: string | number, formula?: string) =>
  typeof v === "number"
    ? `<table:table-cell office:value-type="float" office:value="${v}"${formula ? ` table:formula="${formula}"` : ""}><text:p>${v}</text:p></table:table-cell>`
    : `<table:table-cell office:value-type="string"><text:p>${v}</text:p></table:table-cell>`;
const sheetRow = (cells: string[]) => `<table:table-row>${cells.join("")}</table:table-row>`;
const regions: [string, number[]][] = [
  ["华东地区", [320, 356, 401]], ["华南地区", [280, 301, 345]], ["华北地区", [250, 266, 290]],
  ["华中地区", [190, 214, 238]], ["西南地区", [160, 175, 199]], ["西北地区", [90, 102, 118]], ["东北地区", [110, 108, 121]],
];
const products: [string, string, number, number][] = [
  ["A100 文档扫描仪", "台", 1280, 236], ["B200 会议平板", "台", 8600, 58], ["C300 打印一体机", "台", 2350, 145],
  ["D400 智能录音笔", "支", 399, 820], ["E500 电子书阅读器", "台", 699, 640], ["F600 无线投屏器", "个", 259, 1150],
];
const sales = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:automatic-styles><style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin="2cm"/></style:page-layout></office:automatic-styles>
<office:master-styles><style:master-page style:name="Default" style:page-layout-name="pm1"><style:header style:display="false"/><style:footer style:display="false"/></style:master-page></office:master-styles>
<office:body><office:spreadsheet>
<table:table table:name="地区销售汇总">
${sheetRow([cell("2024 年第二季度各地区销售数据（单位：万元）")])}
${sheetRow(["地区", "四月", "五月", "六月", "季度合计"].map((h) => cell(h)))}
${regions.map(([name, m], i) => sheetRow([cell(name), ...m.map((v) => cell(v)), cell(m[0]! + m[1]! + m[2]!, `of:=SUM([.B${i + 3}:.D${i + 3}])`)])).join("\n")}
${sheetRow([cell("全国合计"), ...[0, 1, 2].map((k) => cell(regions.reduce((n, [, m]) => n + m[k]!, 0), `of:=SUM([.${"BCD"[k]}3:.${"BCD"[k]}9])`)), cell(regions.reduce((n, [, m]) => n + m[0]! + m[1]! + m[2]!, 0), "of:=SUM([.E3:.E9])")])}
</table:table>
<table:table table:name="产品销售明细">
${sheetRow([cell("产品销售明细（2024 年第二季度）")])}
${sheetRow(["产品名称", "单位", "单价（元）", "销量", "销售额（元）"].map((h) => cell(h)))}
${products.map(([name, unit, price, qty], i) => sheetRow([cell(name), cell(unit), cell(price), cell(qty), cell(price * qty, `of:=[.C${i + 3}]*[.D${i + 3}]`)])).join("\n")}
</table:table>
</office:spreadsheet></office:body></office:document>`;

const poems = `古诗词选（常用篇目）

静夜思　　李白
床前明月光，疑是地上霜。
举头望明月，低头思故乡。

春晓　　孟浩然
春眠不觉晓，处处闻啼鸟。
夜来风雨声，花落知多少。

登鹳雀楼　　王之涣
白日依山尽，黄河入海流。
欲穷千里目，更上一层楼。

相思　　王维
红豆生南国，春来发几枝。
愿君多采撷，此物最相思。

望庐山瀑布　　李白
日照香炉生紫烟，遥看瀑布挂前川。
飞流直下三千尺，疑是银河落九天。

黄鹤楼送孟浩然之广陵　　李白
故人西辞黄鹤楼，烟花三月下扬州。
孤帆远影碧空尽，唯见长江天际流。

九月九日忆山东兄弟　　王维
独在异乡为异客，每逢佳节倍思亲。
遥知兄弟登高处，遍插茱萸少一人。

绝句　　杜甫
两个黄鹂鸣翠柳，一行白鹭上青天。
窗含西岭千秋雪，门泊东吴万里船。

春夜喜雨　　杜甫
好雨知时节，当春乃发生。
随风潜入夜，润物细无声。
野径云俱黑，江船火独明。
晓看红湿处，花重锦官城。

山行　　杜牧
远上寒山石径斜，白云生处有人家。
停车坐爱枫林晚，霜叶红于二月花。

清明　　杜牧
清明时节雨纷纷，路上行人欲断魂。
借问酒家何处有？牧童遥指杏花村。

泊船瓜洲　　王安石
京口瓜洲一水间，钟山只隔数重山。
春风又绿江南岸，明月何时照我还？

题西林壁　　苏轼
横看成岭侧成峰，远近高低各不同。
不识庐山真面目，只缘身在此山中。

水调歌头·明月几时有　　苏轼
明月几时有？把酒问青天。不知天上宫阙，今夕是何年。
我欲乘风归去，又恐琼楼玉宇，高处不胜寒。起舞弄清影，何似在人间。
转朱阁，低绮户，照无眠。不应有恨，何事长向别时圆？
人有悲欢离合，月有阴晴圆缺，此事古难全。但愿人长久，千里共婵娟。

如梦令·常记溪亭日暮　　李清照
常记溪亭日暮，沉醉不知归路。
兴尽晚回舟，误入藕花深处。
争渡，争渡，惊起一滩鸥鹭。

示儿　　陆游
死去元知万事空，但悲不见九州同。
王师北定中原日，家祭无忘告乃翁。

过零丁洋　　文天祥
辛苦遭逢起一经，干戈寥落四周星。
山河破碎风飘絮，身世浮沉雨打萍。
惶恐滩头说惶恐，零丁洋里叹零丁。
人生自古谁无死？留取丹心照汗青。

石灰吟　　于谦
千锤万凿出深山，烈火焚烧若等闲。
粉骨碎身浑不怕，要留清白在人间。

（完）
`;

const rules = {
  title: "公司规章制度",
  html: `<h1>公司规章制度</h1>
<p>为规范公司管理，保障公司和员工的合法权益，根据《中华人民共和国劳动法》《中华人民共和国劳动合同法》等法律法规，结合公司实际情况，制定本制度。</p>
<h2>第一章　总则</h2>
<p>第一条　本制度适用于公司全体正式员工、试用期员工及实习人员。</p>
<p>第二条　员工应当遵守国家法律法规和公司各项规章制度，爱岗敬业，诚实守信。</p>
<p>第三条　公司尊重员工的合法权益，鼓励员工通过正当渠道提出意见和建议。</p>
<h2>第二章　考勤管理</h2>
<p>第四条　公司实行每周五天工作制，工作时间为上午九点至下午六点，中午休息一小时。</p>
<p>第五条　员工上下班须按时打卡。迟到或早退三十分钟以内的，每月累计三次以上按事假半天处理。</p>
<p>第六条　请假须提前在办公系统提交申请：三天以内由部门负责人审批，三天以上须报人力资源部备案。</p>
<p>第七条　因工作需要加班的，须事先申请；加班可安排调休，或按照国家规定支付加班工资。</p>
<h2>第三章　薪酬福利</h2>
<p>第八条　员工工资于每月十日前发放上月工资，遇节假日顺延。</p>
<p>第九条　公司依法为员工缴纳社会保险和住房公积金。</p>
<p>第十条　员工享有法定节假日、带薪年休假、婚假、产假、陪产假等假期，具体天数按国家规定执行。</p>
<p>第十一条　公司每年组织一次健康体检，并在传统节日发放节日福利。</p>
<h2>第四章　附则</h2>
<p>第十二条　本制度由人力资源部负责解释，自发布之日起施行。</p>`,
};

const notes = `# 计算机网络学习笔记

> 整理自课堂笔记与教材第一至三章，便于期末复习。

## 一、网络分层模型

| 层次 | 主要协议 | 作用 |
| --- | --- | --- |
| 应用层 | HTTP、DNS、SMTP | 为应用程序提供网络服务 |
| 传输层 | TCP、UDP | 端到端的数据传输 |
| 网络层 | IP、ICMP | 路由选择与分组转发 |
| 数据链路层 | 以太网、PPP | 相邻节点之间的帧传输 |
| 物理层 | 双绞线、光纤 | 比特流的传输 |

**记忆口诀**：应传网数物，自上而下封装，自下而上解封装。

## 二、TCP 三次握手

1. 客户端发送 SYN 报文，进入 SYN_SENT 状态；
2. 服务器回复 SYN + ACK 报文，进入 SYN_RCVD 状态；
3. 客户端再发送 ACK 报文，双方进入 ESTABLISHED 状态。

为什么需要三次握手？为了防止已失效的连接请求报文突然又传到服务器，造成资源浪费。

## 三、TCP 与 UDP 的区别

- TCP 面向连接，提供可靠传输，有流量控制和拥塞控制；
- UDP 无连接，尽最大努力交付，首部开销小，适合实时音视频；
- TCP 面向字节流，UDP 面向报文。

## 四、HTTP 常见状态码

- \`200\`：请求成功；
- \`301\` / \`302\`：永久 / 临时重定向；
- \`404\`：资源不存在；
- \`500\`：服务器内部错误。

## 五、常用命令

\`\`\`bash
ping example.com        # 测试连通性
traceroute example.com  # 查看经过的路由
dig example.com         # 查询 DNS 记录
\`\`\`

## 六、复习要点

- [x] 理解分层模型与各层协议
- [x] 掌握三次握手与四次挥手
- [ ] 练习子网划分的计算题
`;

// A leave-approval flowchart: boxes, a decision diamond and arrows, drawn as SVG and rasterised by sharp.
const box = (x: number, y: number, w: number, label: string, fill = "#e8f0fe") =>
  `<rect x="${x}" y="${y}" width="${w}" height="56" rx="10" fill="${fill}" stroke="#1a73e8" stroke-width="2"/><text x="${x + w / 2}" y="${y + 36}" font-size="20" text-anchor="middle">${label}</text>`;
const arrow = (x1: number, y1: number, x2: number, y2: number, label = "") =>
  `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#555" stroke-width="2" marker-end="url(#a)"/>${label ? `<text x="${(x1 + x2) / 2 + 8}" y="${(y1 + y2) / 2 - 6}" font-size="16" fill="#555">${label}</text>` : ""}`;
const flowchart = `<svg xmlns="http://www.w3.org/2000/svg" width="760" height="720" font-family="Noto Sans CJK SC, WenQuanYi Micro Hei, sans-serif">
<defs><marker id="a" markerWidth="10" markerHeight="10" refX="9" refY="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>
<rect width="760" height="720" fill="#ffffff"/>
<text x="380" y="44" font-size="28" font-weight="bold" text-anchor="middle">员工请假审批流程图</text>
${box(270, 80, 220, "员工提交请假申请", "#e6f4ea")}
${arrow(380, 136, 380, 176)}
${box(270, 180, 220, "部门负责人审批")}
${arrow(380, 236, 380, 276)}
<polygon points="380,280 500,340 380,400 260,340" fill="#fef7e0" stroke="#f9ab00" stroke-width="2"/>
<text x="380" y="347" font-size="20" text-anchor="middle">请假超过三天？</text>
${arrow(500, 340, 580, 340, "是")}
${box(580, 312, 160, "人力资源部备案")}
${arrow(380, 400, 380, 450, "否")}
${arrow(660, 368, 660, 470)}
<line x1="660" y1="478" x2="490" y2="478" stroke="#555" stroke-width="2" marker-end="url(#a)"/>
${box(270, 450, 220, "审批通过，通知员工")}
${arrow(380, 506, 380, 556)}
${box(270, 560, 220, "休假结束后销假", "#e6f4ea")}
<text x="380" y="690" font-size="15" fill="#777" text-anchor="middle">说明：被驳回的申请退回员工修改后可重新提交。</text>
</svg>`;

export const samples = { physics, summary, slides, sales, poems, rules, notes, flowchart };
