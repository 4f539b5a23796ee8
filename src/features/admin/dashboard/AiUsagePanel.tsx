import type { UsageDay } from "#src/features/ai/admin/chatAdmin.ts";
import { ActivityChart } from "./ActivityChart.tsx";

// The dashboard's "AI 使用量（近 14 天）": questions and tokens per Asia/Shanghai day, today's totals.

const QUESTIONS = [{ key: "questions", label: "提问次数", color: "#722ed1" }] as const;
const TOKENS = [{ key: "tokens", label: "Tokens", color: "#13a8a8" }] as const;

export function AiUsagePanel({ days }: { days: UsageDay[] }) {
  const today = days.at(-1) ?? { questions: 0, tokens: 0, users: 0 };
  const short = days.map((d) => ({ ...d, day: d.day.slice(5) }));
  const tiles = [["今日提问", today.questions], ["今日 Tokens", today.tokens], ["今日提问用户", today.users]] as const;
  return (
    <section className="adm-card" aria-labelledby="ai-usage-title">
      <h2 className="adm-card-title" id="ai-usage-title">{`AI 使用量（近 ${days.length} 天）`}</h2>
      <ul className="adm-stats">
        {tiles.map(([label, n]) => <li key={label}><a href="/admin/ai/chat"><span className="adm-stat-label">{label}</span><strong className="adm-stat-value">{n.toLocaleString("zh-CN")}</strong></a></li>)}
      </ul>
      <div className="adm-grid-2" style={{ marginTop: 12 }}>
        <ActivityChart days={short} series={QUESTIONS} title="AI 提问" compact />
        <ActivityChart days={short} series={TOKENS} title="AI Tokens" compact />
      </div>
    </section>
  );
}
