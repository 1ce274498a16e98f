--- luma.pgm: probabilistic graphical models over discrete variables
-- (issue 32; notes 000 Ch. 11; docs/PGM.md).
--
-- Parts, merged here into the table users get as luma.pgm:
--   graph   DiGraph, Graph: named-node graphs, d-separation, cliques,
--           moralisation, triangulation, CPDAGs, DOT
--   factor  Factor: discrete tables with C kernels (src/ml/pgm)
--   infer   enumeration, variable elimination, junction tree, BP (private)
--   bn      BayesianNetwork
--   learn   CPT fitting, score, chow_liu, hill_climb
--   mn      MarkovNetwork, FactorGraph
--   grid    the binary grid MRF, max-flow / graph cut (luma.pgm.grid)
--   rbm     BoltzmannMachine, BernoulliRBM
-- (loaded with this module: luma.load finds a saved BernoulliRBM's class
-- by requiring luma.pgm, and help walks only see fields that are set)
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local args = require("luma.util.args")
local graph = require("luma.pgm.graph")
local factor = require("luma.pgm.factor")
local infer = require("luma.pgm.infer")
local bn = require("luma.pgm.bn")
local learn = require("luma.pgm.learn")
local mn = require("luma.pgm.mn")
local grid = require("luma.pgm.grid")

local rbm = require("luma.pgm.rbm")

local pgm = {}

pgm.grid = grid
pgm.BoltzmannMachine = rbm.BoltzmannMachine
pgm.BernoulliRBM = rbm.BernoulliRBM

-- ---------------------------------------------------------------- classes

-- __methods: the public methods only (what walkers of a metatable list;
-- the private helpers stay reachable through __index for the parts).
local function publish(mt)
  local public = {}
  for k, fn in pairs(mt) do
    if type(k) == "string" and type(fn) == "function" and k:sub(1, 1) ~= "_" then public[k] = fn end
  end
  rawset(mt, "__methods", public)
end

-- A class: a callable table whose `methods` are its instances' methods
-- (flattened from the shared bases, so help lists them all), each behind
-- a self check and relayed so errors point at the caller's line.
local function class(mt, name, ctor, bases)
  for _, base in ipairs(bases or {}) do
    for k, fn in pairs(base) do
      if type(fn) == "function" and rawget(mt, k) == nil then rawset(mt, k, fn) end
    end
  end
  args.wrap_methods(mt, name, args.is_named(name), function(k) return k:sub(1, 1) == "_" end,
    function() return true end)
  publish(mt)
  local cls = setmetatable({ methods = mt }, { __call = function(_, ...)
    local obj = args.relay(2, ctor, ...) -- (not a tail call: level 2 is the caller)
    return obj
  end })
  return cls
end

-- BayesianNetwork methods that live in other parts.
bn.BN_mt.fit = learn.fit
function bn.BN_mt.to_factor_graph(self)
  bn.check_model(self, 2)
  local fg = mn.FactorGraph()
  for _, v in ipairs(self.graph.list) do fg:add_variable(v, self.states[v]) end
  for _, v in ipairs(self.graph.list) do fg.factors[#fg.factors + 1] = self.cpts[v] end
  return fg
end
function bn.BN_mt.to_markov_network(self)
  return mn.copy_into(bn.BN_mt.to_factor_graph(self), mn.MN_mt)
end
function bn.BN_mt.moralize(self) return self.graph:moralize() end

local graph_base = getmetatable(graph.DiGraph_mt).__index
local mn_base = getmetatable(mn.MN_mt).__index

pgm.DiGraph = class(graph.DiGraph_mt, "luma.pgm.DiGraph", graph.DiGraph, { graph_base })
pgm.Graph = class(graph.Graph_mt, "luma.pgm.Graph", graph.Graph, { graph_base })
pgm.Factor = class(factor.Factor_mt, "luma.pgm.Factor", factor.Factor)
pgm.BayesianNetwork = class(bn.BN_mt, "luma.pgm.BayesianNetwork", bn.BayesianNetwork)
pgm.MarkovNetwork = class(mn.MN_mt, "luma.pgm.MarkovNetwork", mn.MarkovNetwork, { mn_base })
pgm.FactorGraph = class(mn.FG_mt, "luma.pgm.FactorGraph", mn.FactorGraph, { mn_base })
pgm.JunctionTree = { methods = infer.JunctionTree_mt }
args.wrap_methods(infer.JunctionTree_mt, "luma.pgm.JunctionTree",
  args.is_named("luma.pgm.JunctionTree"),
  function(k) return k:sub(1, 1) == "_" end, function() return true end)
publish(infer.JunctionTree_mt)

pgm.chow_liu = args.relayed(learn.chow_liu)
pgm.hill_climb = args.relayed(learn.hill_climb)
pgm.score = args.relayed(learn.score)
pgm.CPT_TOLERANCE = bn.CPT_TOLERANCE

-- ---------------------------------------------------------------- help

local KF = "Koller and Friedman, Probabilistic Graphical Models, 2009"
local BARBER = "Barber, Bayesian Reasoning and Machine Learning, 2012"
local EVIDENCE_PARAMS = {
  { name = "evidence", default = "{}", doc = "hard evidence {variable = state (name or index)}" },
  { name = "virtual_evidence", default = "{}",
    doc = "likelihoods {variable = {lambda per state}} multiplied in (Pearl's virtual evidence)" },
  { name = "soft_evidence", default = "{}",
    doc = "new marginals {variable = {q per state}} applied by Jeffrey's rule" },
}
local function with(list, extra)
  local out = table.move(list, 1, #list, 1, {})
  for _, p in ipairs(extra) do out[#out + 1] = p end
  return out
end
local METHOD_PARAM = { name = "method", default = "\"ve\"",
  doc = "\"ve\" (variable elimination), \"jt\" (junction tree), \"enumeration\" or \"bp\" "
    .. "(belief propagation, exact on polytrees)" }
local DOT_PARAMS = { { name = "name", default = "\"G\"", doc = "the graph's name in DOT" } }

luma.doc.set(pgm.DiGraph, { name = "luma.pgm.DiGraph", signature = "DiGraph([edges])",
  doc = "A directed graph with named nodes (strings or numbers, kept in insertion order), "
    .. "from a list of {u, v} edges (a bare name adds a node). Offers parents, children, "
    .. "ancestors, descendants, DAG checks, topological order, moralisation, d-separation, "
    .. "immoralities, Markov equivalence and the CPDAG (" .. KF .. ", ch. 2-3).",
  params = { { name = "edges", default = "{}", doc = "list of {u, v} pairs or node names" } } })
luma.doc.set(pgm.Graph, { name = "luma.pgm.Graph", signature = "Graph([edges])",
  doc = "An undirected graph with named nodes: connected components, maximal cliques by "
    .. "Bron-Kerbosch with pivoting, elimination orders (min-fill, min-degree), "
    .. "triangulation, treewidth of an order, chordality and DOT export (" .. KF .. ", sec. 9.4).",
  params = { { name = "edges", default = "{}", doc = "list of {u, v} pairs or node names" } } })

local shared_graph = {
  add_node = { signature = "g:add_node(v)", doc = "Adds node v (no-op if present). Returns g." },
  has_node = { signature = "g:has_node(v)", doc = "Whether v is a node. Returns a boolean." },
  nodes = { signature = "g:nodes()", doc = "The nodes in insertion order. Returns a list." },
  number_of_nodes = { signature = "g:number_of_nodes()", doc = "The node count. Returns an integer." },
  has_edge = { signature = "g:has_edge(u, v)", doc = "Whether the edge u-v (u -> v) exists. "
    .. "Returns a boolean." },
  connected_components = { signature = "g:connected_components()", doc = "The (weakly) "
    .. "connected components. Returns a list of node lists, in insertion order." },
  to_dot = { signature = "g:to_dot([opts])", doc = "The graph in Graphviz DOT. Returns a string.",
    params = DOT_PARAMS },
  copy = { signature = "g:copy()", doc = "An independent copy. Returns a graph of the same kind." },
  edges = { signature = "g:edges()", doc = "The edges as {u, v} pairs. Returns a list." },
  add_edge = { signature = "g:add_edge(u, v)", doc = "Adds the edge (and missing nodes); a "
    .. "self-loop is an error. Returns g." },
}
local function doc_methods(cls, prefix, records)
  luma.doc.set_members(cls.methods, prefix, records)
end
doc_methods(pgm.DiGraph, "luma.pgm.DiGraph", shared_graph)
doc_methods(pgm.Graph, "luma.pgm.Graph", shared_graph)
doc_methods(pgm.DiGraph, "luma.pgm.DiGraph", {
  remove_edge = { signature = "g:remove_edge(u, v)", doc = "Removes u -> v. Returns g." },
  parents = { signature = "g:parents(v)", doc = "The nodes with an edge into v. Returns a list." },
  children = { signature = "g:children(v)", doc = "The nodes v has an edge to. Returns a list." },
  ancestors = { signature = "g:ancestors(v)", doc = "The nodes with a directed path to v (or "
    .. "to any of a list of nodes), v excluded. Returns a list." },
  descendants = { signature = "g:descendants(v)", doc = "The nodes reachable from v by "
    .. "directed paths, v excluded. Returns a list." },
  is_dag = { signature = "g:is_dag()", doc = "Whether the graph has no directed cycle. Returns "
    .. "a boolean." },
  find_cycle = { signature = "g:find_cycle()", doc = "A directed cycle as a node list whose "
    .. "last entry repeats the first. Returns the list, or nil for a DAG." },
  topological_order = { signature = "g:topological_order()", doc = "The nodes with every "
    .. "parent before its children (Kahn's algorithm, ties by insertion order); a cycle is "
    .. "an error naming it. Returns a list." },
  to_undirected = { signature = "g:to_undirected()", doc = "The skeleton. Returns a Graph." },
  moralize = { signature = "g:moralize()", doc = "The moral graph: the skeleton plus an edge "
    .. "between every two parents of a common child (" .. BARBER .. ", sec. 6.2). Returns a Graph." },
  immoralities = { signature = "g:immoralities()", doc = "The v-structures a -> c <- b with a "
    .. "and b not adjacent. Returns a list of {a, c, b}." },
  d_separated = { signature = "g:d_separated(x, y [, z = {}] [, opts])", doc = "Whether x and "
    .. "y (nodes or lists of nodes) are d-separated given z (Pearl 1988; " .. KF .. ", sec. "
    .. "3.3): by Bayes ball (Shachter 1998; K&F Alg. 3.1), by the ancestral moral graph "
    .. "(Lauritzen et al. 1990) or by examining every path (exponential; for checking). "
    .. "Returns a boolean.",
    params = { { name = "method", default = "\"bayes_ball\"",
      doc = "\"bayes_ball\", \"moral\" (ancestral graph, moralise, delete z, search) or \"path\"" } } },
  is_markov_equivalent = { signature = "g:is_markov_equivalent(other)", doc = "Whether two "
    .. "DAGs have the same skeleton and the same immoralities (Verma and Pearl 1990). "
    .. "Returns a boolean." },
  cpdag = { signature = "g:cpdag()", doc = "The essential graph of the DAG's Markov "
    .. "equivalence class: immoralities and edges forced by Meek's rules R1-R3 (Meek 1995) "
    .. "directed, every other edge present in both directions. Returns a DiGraph." },
})
doc_methods(pgm.Graph, "luma.pgm.Graph", {
  neighbors = { signature = "g:neighbors(v)", doc = "The nodes adjacent to v. Returns a list." },
  maximal_cliques = { signature = "g:maximal_cliques()", doc = "Every maximal clique by "
    .. "Bron-Kerbosch with Tomita's pivot. Returns a list of node lists (sorted)." },
  elimination_order = { signature = "g:elimination_order([opts])", doc = "A greedy "
    .. "elimination order (" .. KF .. ", sec. 9.4.3.2; ties by insertion order). Returns a list.",
    params = { { name = "heuristic", default = "\"min_fill\"", doc = "\"min_fill\" or \"min_degree\"" } } },
  triangulate = { signature = "g:triangulate([opts])", doc = "The chordal graph made by "
    .. "eliminating nodes in order, each time joining the node's remaining neighbours. "
    .. "Returns the triangulated Graph and the order used.",
    params = { { name = "heuristic", default = "\"min_fill\"", doc = "\"min_fill\" or \"min_degree\"" },
      { name = "order", default = "nil", doc = "an explicit elimination order of all nodes" } } },
  treewidth = { signature = "g:treewidth(order)", doc = "The width of an elimination order: "
    .. "the largest number of neighbours a node has when eliminated. Returns an integer." },
  is_chordal = { signature = "g:is_chordal()", doc = "Whether every cycle of length >= 4 has "
    .. "a chord (maximum cardinality search, Tarjan and Yannakakis 1984). Returns a boolean." },
})

luma.doc.set(pgm.Factor, { name = "luma.pgm.Factor",
  signature = "Factor(vars, card, values [, opts])",
  doc = "A table of non-negative values over named discrete variables (" .. KF .. ", sec. "
    .. "4.2.1): values row-major over vars, the last varying fastest. Products, quotients "
    .. "(0/0 = 0), sum/max marginals and reductions run in C, charged to the state's budget; "
    .. "a table that would not fit under the memory limit is refused before allocation, "
    .. "naming its size. Negative potentials are errors.",
  params = { { name = "log", default = false, doc = "values are logarithms (products add, sums are log-sum-exp)" },
    { name = "states", default = "nil", doc = "state names per variable {var = {names}}" } } })
doc_methods(pgm.Factor, "luma.pgm.Factor", {
  product = { signature = "f:product(g)", doc = "The factor product over the union of the "
    .. "scopes (also f * g). Returns a Factor." },
  divide = { signature = "f:divide(g)", doc = "f / g for g's scope within f's, with 0/0 = 0 "
    .. "(a separator update; also f / g). Returns a Factor." },
  marginalize = { signature = "f:marginalize(vars)", doc = "Sums the variables out. Returns "
    .. "a Factor." },
  maximize = { signature = "f:maximize(vars)", doc = "Maxes the variables out. Returns a Factor." },
  marginal = { signature = "f:marginal(vars)", doc = "Keeps only vars, summing the others "
    .. "out. Returns a Factor." },
  reduce = { signature = "f:reduce(evidence)", doc = "Fixes variables to states {var = "
    .. "state}. Returns a Factor over the others." },
  normalize = { signature = "f:normalize()", doc = "Divides by the sum (an all-zero factor is "
    .. "an error). Returns the Factor and the sum." },
  sum = { signature = "f:sum()", doc = "The sum of the values (log-sum-exp in log space). "
    .. "Returns a number." },
  to_log = { signature = "f:to_log()", doc = "The factor in log space. Returns a Factor." },
  to_prob = { signature = "f:to_prob()", doc = "The factor out of log space. Returns a Factor." },
  scope = { signature = "f:scope()", doc = "The variables. Returns a list." },
  cardinality = { signature = "f:cardinality()", doc = "The variables' state counts. Returns "
    .. "a table var -> integer." },
  get = { signature = "f:get(assignment)", doc = "The value at a full assignment {var = "
    .. "state}. Returns a number." },
  argmax = { signature = "f:argmax()", doc = "The assignment with the largest value (first "
    .. "on ties). Returns the assignment {var = state} and the value." },
  totable = { signature = "f:totable()", doc = "The values as nested tables by state: "
    .. "t[s1][s2]... Returns a table (a number for no variables)." },
  state_index = { signature = "f:state_index(var, state)", doc = "The 1-based index of a "
    .. "state given by name or index. Returns an integer." },
  state_name = { signature = "f:state_name(var, i)", doc = "The name of state i (i itself "
    .. "without names). Returns a string or integer." },
})

luma.doc.set(pgm.BayesianNetwork, { name = "luma.pgm.BayesianNetwork",
  signature = "BayesianNetwork([edges])",
  doc = "A belief network: a DAG over discrete variables with a CPT per node, P(x) = prod_i "
    .. "P(x_i | pa(x_i)) (" .. KF .. ", ch. 3, 9-10; " .. BARBER .. ", ch. 3). CPTs are set "
    .. "as tables of state names (set_cpt) or fitted from data (fit). Inference by "
    .. "enumeration, variable elimination, the junction tree or belief propagation, with "
    .. "hard, virtual and soft (Jeffrey's rule) evidence; MAP and MPE; d-separation; "
    .. "Markov equivalence. A cycle is an error naming it.",
  params = { { name = "edges", default = "{}", doc = "list of {parent, child} pairs" } } })
doc_methods(pgm.BayesianNetwork, "luma.pgm.BayesianNetwork", {
  add_node = { signature = "bn:add_node(v [, states = nil])", doc = "Adds a node, optionally "
    .. "with its state names. Returns bn." },
  add_edge = { signature = "bn:add_edge(u, v)", doc = "Adds u -> v; an edge closing a cycle "
    .. "is an error naming the cycle. Returns bn." },
  nodes = { signature = "bn:nodes()", doc = "The nodes in insertion order. Returns a list." },
  edges = { signature = "bn:edges()", doc = "The edges {parent, child}. Returns a list." },
  parents = { signature = "bn:parents(v)", doc = "v's parents. Returns a list." },
  children = { signature = "bn:children(v)", doc = "v's children. Returns a list." },
  to_dot = { signature = "bn:to_dot([opts])", doc = "The DAG in Graphviz DOT. Returns a string.",
    params = DOT_PARAMS },
  d_separated = { signature = "bn:d_separated(x, y [, z = {}] [, opts])", doc = "Whether x "
    .. "and y are d-separated given z in the DAG (see DiGraph.d_separated). Returns a boolean.",
    params = { { name = "method", default = "\"bayes_ball\"", doc = "\"bayes_ball\", \"moral\" or \"path\"" } } },
  set_cpt = { signature = "bn:set_cpt(v, {states, parents, probs})", doc = "Sets v's CPT: "
    .. "probs lists a distribution over v's states per parent configuration (row-major over "
    .. "the parents, last fastest; for one parent also a map by its state names); a "
    .. "distribution is a list or a map by state name. Rows must be non-negative and sum "
    .. "to 1 within CPT_TOLERANCE (1e-6); parents need known states. Returns bn." },
  cpt = { signature = "bn:cpt(v)", doc = "v's CPT as a Factor over (parents..., v). Returns a "
    .. "Factor or nil." },
  check_model = { signature = "bn:check_model()", doc = "Checks every node has a CPT "
    .. "consistent with its parents' states. Returns true or raises." },
  probability = { signature = "bn:probability(assignment)", doc = "The joint probability of a "
    .. "full assignment {var = state}. Returns a number." },
  log_probability = { signature = "bn:log_probability(assignment)", doc = "The log of the "
    .. "joint probability. Returns a number." },
  query = { signature = "bn:query(vars [, opts])", doc = "The posterior over vars (a name or a "
    .. "list) given the evidence. Impossible evidence is an error. Returns a normalised Factor.",
    params = with(EVIDENCE_PARAMS, { METHOD_PARAM, { name = "log", default = false,
      doc = "run ve, jt or enumeration in log space (products as sums, sums as log-sum-exp)" } }) },
  marginals = { signature = "bn:marginals([opts])", doc = "Every unobserved variable's "
    .. "posterior, by one junction-tree calibration unless method says otherwise. Returns "
    .. "a table var -> {state = p}.",
    params = with(EVIDENCE_PARAMS, { { name = "method", default = "\"jt\"",
      doc = "\"jt\" (one calibration), \"ve\" or \"enumeration\" (one run per variable) or \"bp\"" },
      { name = "log", default = false, doc = "run ve, jt or enumeration in log space" } }) },
  evidence_probability = { signature = "bn:evidence_probability(evidence [, opts])",
    doc = "P(evidence) (weighted by virtual evidence). Returns a number.",
    params = { { name = "virtual_evidence", default = "{}", doc = "likelihoods per variable" },
      { name = "method", default = "\"ve\"", doc = "\"ve\" or \"jt\"" },
      { name = "evidence", default = "the first argument", doc = "hard evidence" } } },
  mpe = { signature = "bn:mpe([opts])", doc = "The most probable explanation: the jointly "
    .. "most probable state of every unobserved variable, by max-product elimination with "
    .. "traceback. Returns the assignment {var = state} and its posterior probability.",
    params = EVIDENCE_PARAMS },
  map_query = { signature = "bn:map_query(vars [, opts])", doc = "The most probable joint "
    .. "state of vars with the other variables summed out (marginal MAP). Returns the "
    .. "assignment and its posterior probability.", params = EVIDENCE_PARAMS },
  junction_tree = { signature = "bn:junction_tree([opts])", doc = "The calibrated junction "
    .. "tree for the evidence (moralise, triangulate by min-fill, maximum-weight spanning "
    .. "tree on separator sizes, assign CPTs, absorb both ways). Returns a JunctionTree.",
    params = EVIDENCE_PARAMS },
  sample = { signature = "bn:sample(n [, rng = luma.random.default()])", doc = "Ancestral "
    .. "sampling in topological order. Returns a luma.Table of n rows, one categorical "
    .. "column per node." },
  fit = { signature = "bn:fit(data [, opts])", doc = "Fits every CPT of the current structure "
    .. "from data (a luma.Table of categorical columns, or {name = list of states}); states "
    .. "not yet known come from the data, sorted. Returns bn.",
    params = { { name = "estimator", default = "\"mle\"", doc = "\"mle\", \"dirichlet\" or \"bdeu\"" },
      { name = "pseudo_count", default = 1, doc = "dirichlet: added to every count" },
      { name = "equivalent_sample_size", default = 10, doc = "bdeu: the prior's sample size" } } },
  is_markov_equivalent = { signature = "bn:is_markov_equivalent(other)", doc = "Whether the "
    .. "DAGs (another network or a DiGraph) are Markov equivalent. Returns a boolean." },
  cpdag = { signature = "bn:cpdag()", doc = "The equivalence class's essential graph. "
    .. "Returns a DiGraph (undirected edges both ways)." },
  copy = { signature = "bn:copy()", doc = "A copy sharing the (immutable) CPT factors. "
    .. "Returns a BayesianNetwork." },
  to_factor_graph = { signature = "bn:to_factor_graph()", doc = "One factor per CPT. Returns "
    .. "a FactorGraph." },
  to_markov_network = { signature = "bn:to_markov_network()", doc = "The CPTs as potentials "
    .. "(Z = 1); its graph is the moral graph. Returns a MarkovNetwork." },
  moralize = { signature = "bn:moralize()", doc = "The moral graph. Returns a Graph." },
})

local model_doc = {
  add_variable = { signature = "m:add_variable(name, states)", doc = "Declares a variable "
    .. "with a list of state names or a state count. Returns m." },
  add_factor = { signature = "m:add_factor(vars, values) | m:add_factor(factor)", doc = "Adds "
    .. "a potential over declared variables (values row-major, last fastest), or a Factor. "
    .. "Negative or non-finite potentials are errors. Returns m." },
  get_factors = { signature = "m:get_factors()", doc = "The factors. Returns a list of Factors." },
  variables = { signature = "m:variables()", doc = "The variables in declaration order. "
    .. "Returns a list." },
  partition_function = { signature = "m:partition_function([opts])", doc = "Z = sum over all "
    .. "states of the product of the potentials. Returns a number.",
    params = { { name = "method", default = "\"ve\"", doc = "\"ve\", \"jt\" or \"enumeration\"" } } },
  query = { signature = "m:query(vars [, opts])", doc = "The normalised marginal over vars "
    .. "given hard evidence. Returns a Factor.",
    params = { { name = "evidence", default = "{}", doc = "hard evidence {var = state}" }, METHOD_PARAM } },
  mpe = { signature = "m:mpe([opts])", doc = "The most probable joint state given evidence. "
    .. "Returns the assignment and its probability.",
    params = { { name = "evidence", default = "{}", doc = "hard evidence {var = state}" } } },
  belief_propagation = { signature = "m:belief_propagation([opts])", doc = "Sum- or "
    .. "max-product belief propagation on the factor graph (" .. BARBER .. ", sec. 5.1; "
    .. KF .. ", ch. 11): exact on trees, loopy otherwise, with damping and a schedule. "
    .. "Returns beliefs {var = {state = b}} (max-marginals for mode \"max\") and a report "
    .. "{converged, iterations, max_delta}.",
    params = { { name = "evidence", default = "{}", doc = "hard evidence {var = state}" },
      { name = "mode", default = "\"sum\"", doc = "\"sum\" (marginals) or \"max\" (max-marginals)" },
      { name = "max_iter", default = 100, doc = "iteration limit" },
      { name = "tol", default = 1e-10, doc = "stop when no message changes by more" },
      { name = "damping", default = 0, doc = "new = (1 - damping) new + damping old, in [0, 1)" },
      { name = "schedule", default = "\"parallel\"", doc = "\"parallel\" (flooding) or "
        .. "\"sequential\" (factors forward then back, each using the latest messages)" } } },
  to_graph = { signature = "m:to_graph()", doc = "The Markov network's graph (variables "
    .. "sharing a factor are joined). Returns a Graph." },
  to_factor_graph = { signature = "m:to_factor_graph()", doc = "The same factors as a "
    .. "FactorGraph. Returns a FactorGraph." },
  to_markov_network = { signature = "m:to_markov_network()", doc = "The same factors as a "
    .. "MarkovNetwork. Returns a MarkovNetwork." },
  to_dot = { signature = "m:to_dot([opts])", doc = "The graph in DOT (a factor graph as a "
    .. "bipartite graph of ellipses and boxes). Returns a string.", params = DOT_PARAMS },
}
luma.doc.set(pgm.MarkovNetwork, { name = "luma.pgm.MarkovNetwork", signature = "MarkovNetwork()",
  doc = "An undirected model P(x) = prod_c psi_c(x_c) / Z over discrete variables (" .. KF
    .. ", ch. 4): potentials, the partition function, marginals, MPE and BP.", params = {} })
luma.doc.set(pgm.FactorGraph, { name = "luma.pgm.FactorGraph", signature = "FactorGraph()",
  doc = "Variables and factors as a bipartite graph, for sum- and max-product belief "
    .. "propagation (Kschischang, Frey and Loeliger 2001; " .. BARBER .. ", sec. 5.1).",
  params = {} })
doc_methods(pgm.MarkovNetwork, "luma.pgm.MarkovNetwork", model_doc)
doc_methods(pgm.FactorGraph, "luma.pgm.FactorGraph", model_doc)
doc_methods(pgm.MarkovNetwork, "luma.pgm.MarkovNetwork", {
  maximal_cliques = { signature = "m:maximal_cliques()", doc = "The maximal cliques of the "
    .. "network's graph. Returns a list of variable lists." } })
doc_methods(pgm.FactorGraph, "luma.pgm.FactorGraph", {
  is_tree = { signature = "m:is_tree()", doc = "Whether the factor graph has no cycle (BP is "
    .. "then exact). Returns a boolean." } })

luma.doc.set(pgm.JunctionTree, { name = "luma.pgm.JunctionTree",
  signature = "JunctionTree{} (made by bn:junction_tree)",
  doc = "A calibrated junction tree (forest): cliques, edges {a, b, separator}, and the "
    .. "clique potentials after Hugin absorption both ways (" .. BARBER .. ", ch. 6).", params = {} })
doc_methods(pgm.JunctionTree, "luma.pgm.JunctionTree", {
  marginal = { signature = "jt:marginal(var)", doc = "The normalised marginal of var from the "
    .. "smallest clique holding it. Returns a Factor." },
  normalizer = { signature = "jt:normalizer()", doc = "The product over trees of each root's "
    .. "total: the evidence's probability, or Z. Returns a number." },
  treewidth = { signature = "jt:treewidth()", doc = "The largest clique's size minus one. "
    .. "Returns an integer." },
  check_running_intersection = { signature = "jt:check_running_intersection()", doc = "Checks "
    .. "that every variable's cliques form a connected subtree. Returns true or raises." },
})

local FIT_PARAMS = { { name = "estimator", default = "\"mle\"", doc = "\"mle\", \"dirichlet\" or \"bdeu\"" },
  { name = "pseudo_count", default = 1, doc = "dirichlet: added to every count" },
  { name = "equivalent_sample_size", default = 10, doc = "bdeu: the prior's sample size" } }
luma.doc.set_members(pgm, "luma.pgm", {
  chow_liu = { signature = "chow_liu(data [, opts]) -> BayesianNetwork", doc = "The "
    .. "maximum-likelihood tree (Chow and Liu 1968): a maximum spanning tree on pairwise "
    .. "mutual information, directed away from root, CPTs fitted.",
    params = with(FIT_PARAMS, { { name = "root", default = "the first column", doc = "the tree's root" } }) },
  hill_climb = { signature = "hill_climb(data [, opts]) -> BayesianNetwork, info", doc = "Greedy "
    .. "hill climbing over DAGs by adding, removing or reversing one edge at a time while the "
    .. "score improves (" .. KF .. ", sec. 18.4.3); CPTs fitted. info = {iterations, score}.",
    params = with(FIT_PARAMS, { { name = "score", default = "\"bic\"", doc = "\"bic\" or \"bdeu\"" },
      { name = "max_indegree", default = "unlimited", doc = "most parents per node" },
      { name = "max_iter", default = 1000, doc = "most moves" },
      { name = "start", default = "the empty graph", doc = "a BayesianNetwork to start from" } }) },
  score = { signature = "score(bn, data [, opts]) -> number", doc = "The decomposable BIC or "
    .. "BDeu score of the network's structure on data (larger is better).",
    params = { { name = "score", default = "\"bic\"", doc = "\"bic\" or \"bdeu\"" },
      { name = "equivalent_sample_size", default = 10, doc = "bdeu: the prior's sample size" } } },
})

luma.doc.set(pgm, { name = "luma.pgm",
  doc = "Probabilistic graphical models over discrete variables: DiGraph, Graph, Factor, "
    .. "BayesianNetwork, MarkovNetwork, FactorGraph, JunctionTree, chow_liu, hill_climb, "
    .. "score; grid (binary grid MRFs: ICM, Gibbs, loopy BP, graph cut, maxflow), "
    .. "BoltzmannMachine, BernoulliRBM (" .. KF .. "; " .. BARBER .. ")." })

return pgm
