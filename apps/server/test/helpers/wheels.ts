import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runPython } from './clusters.js';

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
