# From Coiled's getting started and "Manage users" pages
# (https://docs.coiled.io/user_guide/index.html, https://docs.coiled.io/user_guide/users/index.html):
# a cluster in a workspace, a client, a computation, the cluster listed, closed.
import os

import dask

import cumulus as coiled

cluster = coiled.Cluster(n_workers=1, workspace=os.environ["DOCS_WORKSPACE"], name="docs-quickstart")
client = cluster.get_client()

df = dask.datasets.timeseries("2000-01-01", "2000-01-03", partition_freq="1d")
result = df.groupby("name").x.mean().compute()
assert len(result) > 0

assert "docs-quickstart" in coiled.list_clusters()
print(cluster.dashboard_link)
client.close()
cluster.close()
print("ok")
