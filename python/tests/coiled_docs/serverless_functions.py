# From Coiled's "Serverless Functions" page (https://docs.coiled.io/user_guide/functions.html):
# a decorated function runs remotely, its result comes back; .map runs over many inputs; and
# coiled.run as a decorator. The functions share one small cluster (name=) to keep this short.
import pandas as pd

import cumulus as coiled

df = pd.DataFrame({"name": ["Alice", "Bob", "Alice"], "x": [1, 2, 3]})  # "Read local data"


@coiled.function(name="docs-functions", n_workers=1)  # This function runs remotely
def process(df):
    df = df[df.name == "Alice"]
    return df


result = process(df)  # Process on remote VM
print(result)
assert list(result.x) == [1, 3]


@coiled.function(name="docs-functions", n_workers=1)
def square(i):
    return i * i


results = square.map(range(5))
assert list(results) == [0, 1, 4, 9, 16]


@coiled.run(name="docs-functions", n_workers=1)
def hello(who):
    return f"hello {who}"


assert hello("world") == "hello world"
process.cluster.close()
print("ok")
