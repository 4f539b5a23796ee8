import { Hono, type Context } from "hono";
import { z } from "zod";
import UploadForm from "#islands/upload/UploadForm.tsx";
import { creditName, setting } from "#src/features/settings/service.ts";
import { clientIp, type AppEnv } from "#src/http/context.ts";
import { unauthorized } from "#src/lib/errors.ts";
import { validate } from "#src/lib/validate.ts";
import { Island } from "#src/views/Island.tsx";
import { DefaultLayout } from "#src/views/layouts/DefaultLayout.tsx";
import { renderPage } from "#src/views/render.tsx";
import { categoryOptions } from "./categories.ts";
import { defaultLanguage, enabledLanguages } from "./languages.ts";
import { assertMayUpload, uploadPolicy, uploadRefusal, type Actor } from "./policy.ts";
import { allowedExts, maxDocumentMb } from "./storage.ts";
import { attachmentView, receiveDocumentUpload, uploadExists } from "./upload.ts";

export const uploadRoutes = new Hono<AppEnv>();

const actor = (c: Context<AppEnv>): Actor => {
  const u = c.get("user");
  if (!u) throw unauthorized();
  return u;
};

// Rights are checked before the body is read, so a refused user's file is never taken in.
uploadRoutes.post("/api/v1/upload/document", async (c) => {
  const me = actor(c);
  assertMayUpload(me);
  const row = await receiveDocumentUpload(me, c.req.raw, clientIp(c));
  return c.json({ message: "上传成功", ...attachmentView(row) });
});

uploadRoutes.get("/api/v1/upload/document/exists", validate("query", z.object({ hash: z.string({ error: "请提供文件哈希" }).trim().toLowerCase() })), (c) =>
  c.json({ exists: uploadExists(actor(c), c.req.valid("query").hash) }));

function Tips({ review, award, limit, credit }: { review: boolean; award: number; limit: number; credit: string }) {
  return (
    <ul className="up-tips">
      <li>请上传你拥有版权或可以分享的文档，侵权、违法内容将被删除。</li>
      <li>{review ? "文档提交后需要管理员审核，审核通过并转换完成后对外展示。" : "文档提交后会自动转换为在线阅读页面，转换完成即对外展示。"}</li>
      {award > 0 && limit > 0 ? <li>{`每上传一篇文档奖励 ${award} ${credit}，每天最多奖励 ${limit} 次。`}</li> : null}
      <li>服务器已有的相同文件无需重复传输（秒传）。</li>
    </ul>
  );
}

/** /upload (login required by siteGuards): the upload island, or why this user cannot upload. */
uploadRoutes.get("/upload", (c) => {
  const me = actor(c);
  const refusal = uploadRefusal(me);
  const { needsReview } = uploadPolicy(me);
  const credit = creditName();
  const props = {
    categories: categoryOptions(), languages: enabledLanguages(), defaultLanguage: defaultLanguage(), exts: allowedExts(), maxMb: maxDocumentMb(), creditName: credit, needsReview,
  };
  const body = refusal ? (
    <p className="up-refused" role="alert">{refusal}</p>
  ) : !props.categories.length ? (
    <p className="up-refused" role="alert">网站还没有可用的文档分类，暂时无法上传，请联系管理员。</p>
  ) : (
    <Island name="UploadForm" component={UploadForm} props={props} />
  );
  return renderPage(c, (
    <DefaultLayout>
      <div className="container up-page">
        <section className="card">
          <div className="card-head">
            <h1 className="card-title">上传文档</h1>
            <a className="up-mine" href="/me/document">我的文档 ›</a>
          </div>
          <Tips review={needsReview} award={Number(setting("score", "document")) || 0} limit={Number(setting("score", "document_limit")) || 0} credit={credit} />
          {body}
        </section>
      </div>
    </DefaultLayout>
  ), { meta: { title: "上传文档", noindex: true } });
});
