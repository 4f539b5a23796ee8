import type { ComponentType } from "react";
import { useAssets } from "./assets.tsx";

/**
 * Server side of the island runtime: renders the component to HTML inside a marker that carries
 * its name and JSON props; islands/client.ts hydrates each marker by name. Props must be JSON.
 */
/**
 * `hydrate="visible"` defers loading the island's code until its markup nears the viewport (for
 * below-the-fold parts such as comments under a long document): the server HTML shows meanwhile.
 */
export function Island<P extends object>({ name, component: C, props, hydrate = "load" }: { name: string; component: ComponentType<P>; props: P; hydrate?: "load" | "visible" }) {
  const assets = useAssets();
  assets.islands.add(name);
  if (hydrate === "load") assets.eager.add(name);
  return (
    <div data-island={name} data-props={JSON.stringify(props)} data-hydrate={hydrate === "visible" ? "visible" : undefined} style={{ display: "contents" }}>
      <C {...props} />
    </div>
  );
}
