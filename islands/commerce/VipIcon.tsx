// The VIP mark beside a member's name (header, personal homepage, the reader's uploader card).
// No default export: a plain component that server views and islands both render.

/** `icon` is the vip.icon setting (an uploaded image URL); empty draws the built-in crown. */
export function VipIcon({ icon, size = 16 }: { icon: string; size?: number }) {
  if (icon) return <img className="vip-icon" src={icon} alt="VIP" title="VIP 会员" width={size} height={size} />;
  return (
    <svg className="vip-icon" viewBox="0 0 24 24" width={size} height={size} role="img" aria-label="VIP">
      <title>VIP 会员</title>
      <rect width="24" height="24" rx="6" fill="#f5b80b" />
      <path d="M5 9l3.6 3L12 6.5l3.4 5.5L19 9l-1.5 8.5h-11z" fill="#fff" />
    </svg>
  );
}
