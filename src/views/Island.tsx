import type { ComponentType } from "react";
import { useAssets } from "./assets.tsx";

/**
 * Server side of the island runtime: renders the component to HTML inside a marker that carries
 * its name and JSON props; islands/client.ts hydrates each marker by name. Props must be JSON.
 */
export function Island<P extends object>({ name, component: C, props }: { name: string; component: ComponentType<P>; props: P }) {
  useAssets().islands.add(name);
  return (
    <div data-island={name} data-props={JSON.stringify(props)} style={{ display: "contents" }}>
      <C {...props} />
    </div>
  );
}
