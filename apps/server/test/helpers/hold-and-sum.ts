/**
 * A client (`runPython(HOLD_AND_SUM, [details.json, dir])`) that persists 16 parts over the
 * workers (each run counted in `dir/runs`), writes which workers hold them (`dir/persisted`), waits
 * for the test's go (`dir/go`), then sums them: `{sum, runs}`. A worker retired meanwhile must hand
 * its parts on: `runs` stays 16.
 */
export const HOLD_AND_SUM = `
import sys, json, os, time, tempfile
import numpy as np
from dask import delayed
from distributed import Client, wait
from distributed.security import Security
details = json.loads(open(sys.argv[1]).read())
out = sys.argv[2]
d = tempfile.mkdtemp()
cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
open(cert, "w").write(details["cluster_options"]["tls_cert"])
open(key, "w").write(details["cluster_options"]["tls_key"])
sec = Security(tls_ca_file=cert, tls_client_cert=cert, tls_client_key=key, require_encryption=True)
instance = details["scheduler"]["instance"]
address = f"tls://{instance['public_ip_address'] or instance['private_ip_address']}:{details['scheduler_port']}"
counter = os.path.join(out, "runs")
def part(i, counter=counter):
    with open(counter, "a") as f:
        f.write("run\\n")
    return np.full(1000, float(i))
with Client(address, security=sec, timeout=60) as client:
    client.wait_for_workers(2, timeout=120)
    parts = client.persist([delayed(part)(i, pure=False) for i in range(16)])
    wait(parts)
    holders = sorted({w for ws in client.who_has(parts).values() for w in ws})
    open(os.path.join(out, "persisted"), "w").write(json.dumps(holders))
    while not os.path.exists(os.path.join(out, "go")):
        time.sleep(0.2)
    total = client.compute(delayed(sum)([delayed(np.sum)(p) for p in parts])).result()
    print(json.dumps({"sum": float(total), "runs": len(open(counter).read().split())}))
`;
