import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Api } from './api.js';
import { PYTHON, runPython } from './clusters.js';
import { waitFor } from './wait.js';

/**
 * Builds a pure-Python wheel with the standard library alone (no setuptools, no index): a package
 * `module` whose `VALUE` is `value`. Answers its path, file name and the digests package-upload wants.
 */
export async function makeWheel(dir: string, project: string, version: string, value: string) {
  const module = project.replace(/-/g, '_');
  const fileName = `${module}-${version}-py3-none-any.whl`;
  const file = path.join(dir, fileName);
  await runPython(
    `
import base64, hashlib, sys, zipfile
path, module, project, version, value = sys.argv[1:6]
dist = f"{module}-{version}.dist-info"
files = {
    f"{module}/__init__.py": f"VALUE = {value!r}\\n",
    f"{dist}/METADATA": f"Metadata-Version: 2.1\\nName: {project}\\nVersion: {version}\\n",
    f"{dist}/WHEEL": "Wheel-Version: 1.0\\nGenerator: cumulus-tests\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
record = []
with zipfile.ZipFile(path, "w") as z:
    for name, text in files.items():
        data = text.encode()
        z.writestr(name, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    z.writestr(f"{dist}/RECORD", "\\n".join(record) + "\\n")
`,
    [file, module, project, version, value],
  );
  const bytes = readFileSync(file);
  return {
    file,
    fileName,
    bytes,
    md5Hex: createHash('md5').update(bytes).digest('hex'),
    md5Base64: createHash('md5').update(bytes).digest('base64'),
  };
}

/** Uploads a wheel to a workspace's package files (package-upload, then its signed link); answers its file id. */
export async function uploadWheel(
  api: Api,
  slug: string,
  wheel: Awaited<ReturnType<typeof makeWheel>>,
): Promise<number> {
  const announced = await api.post(`/api/v2/software-environment/account/${slug}/package-upload`, {
    name: wheel.fileName,
    md5: wheel.md5Hex,
    wheel_md5: wheel.md5Base64,
  });
  if (announced.status !== 200)
    throw new Error(`package-upload answered ${announced.status}: ${announced.text}`);
  if (announced.body.should_upload !== false) {
    const put = await fetch(announced.body.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'binary/octet-stream', 'content-md5': wheel.md5Base64 },
      body: wheel.bytes,
    });
    if (put.status !== 200) throw new Error(`the upload answered ${put.status}`);
  }
  return announced.body.id;
}

/**
 * Creates a software environment (`body` of the create call) and waits until its build has ended:
 * answers the build as the API shows it and its log lines.
 */
export async function builtEnvironment(
  api: Api,
  slug: string,
  body: Record<string, unknown>,
  timeoutMs: number,
) {
  const base = `/api/v2/software-environment/account/${slug}`;
  const created = await api.post(base, body);
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
  const buildId = created.body.latest_spec.latest_build.id as number;
  const build = await waitFor(
    `build ${buildId}`,
    async () => {
      const res = await api.get(`${base}/build/${buildId}`);
      return ['built', 'error'].includes(res.body.state) && res.body;
    },
    timeoutMs,
    500,
  );
  const logs = (await api.get(`${base}/build/logs/${buildId}`, { query: { limit: 1000 } })).body.events.map(
    (e: { message: string }) => e.message,
  ) as string[];
  return { build, logs };
}

/**
 * A wheel of a package the machines' Python (the tests' PYTHON, which every backend's rig runs)
 * does not have, checked so, made in `dir` and uploaded to the workspace: answers its file id.
 */
export async function uploadWheelPythonLacks(
  api: Api,
  slug: string,
  dir: string,
  module: string,
  value: string,
) {
  const missing = await promisify(execFile)(PYTHON, ['-c', `import ${module}`]).then(
    () => false,
    (err: Error) => err.message.includes(`No module named '${module}'`),
  );
  if (!missing)
    throw new Error(`${PYTHON} has ${module} already: a test of installing it would prove nothing`);
  return uploadWheel(api, slug, await makeWheel(dir, module, '1.0.0', value));
}
