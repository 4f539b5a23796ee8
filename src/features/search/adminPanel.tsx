import type { ReactNode } from "react";
import { Island } from "#src/views/Island.tsx";
import AdminSearchIndex from "#islands/admin/AdminSearchIndex.tsx";
import { rebuildStatus } from "./indexer.ts";

/** The rebuild panel under /admin/config/search (the config screen's EXTRAS). */
export function searchIndexCard(): ReactNode {
  return (
    <section className="adm-card">
      <h2 className="adm-card-title">搜索索引</h2>
      <Island name="AdminSearchIndex" component={AdminSearchIndex} props={{ initial: rebuildStatus() }} />
    </section>
  );
}
