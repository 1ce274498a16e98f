-- luma.decomposition.NMF (lua/luma/decomposition/nmf.lua).
--
-- Reference values: scikit-learn 1.2.1 (Debian's python3-sklearn, run as
-- /usr/bin/python3), printed with repr, on
--   X[i][j] = |sin(0.7 i + 1.3 j)| (1 + i mod 3) + 0.1 cos(0.2 i j)^2,
--   i = 1..30, j = 1..12 (1-based), and Xn = X[:5] * 0.5 + 0.1:
-- nndsvd_W (first 3 rows), nndsvd_H, nndsvda_H: sklearn.decomposition.
--   _nmf._initialize_nmf(X, 4, init=..., random_state=0) (its randomized
--   SVD is exact here: 4 + 10 oversamples exceed the 12 columns);
-- each case: m = NMF(4, **kw); W = m.fit_transform(X); reconstruction_err_,
--   n_iter_, components_, W[:3], transform(Xn), with kw
--   cd: solver="cd", init="nndsvd"; cd_tight: the same with tol=1e-10,
--   max_iter=5000; cd_reg: alpha_W=0.01, l1_ratio=0.5; mu: solver="mu",
--   init="nndsvda"; mu_kl: the same with beta_loss="kullback-leibler".
-- SPDX-License-Identifier: MIT
local luma = require("luma")
local support = require("support")
local errors_with, capture_warnings = support.errors_with, support.capture_warnings
local NMF = luma.decomposition.NMF

local rows = support.rows

local REF = {
nndsvd_W = {0.8810826380574365, 0.2560371731688616, 0.0, 0.0, 1.3149360341264074, 0.0, 0.0, 0.0,
    0.4603587757196113, 0.0, 0.28705681525055277, 0.27275823726876824},
nndsvd_H = {1.4839772797715665, 1.4822407630430734, 1.5155215510894335, 1.4670138111377533,
    1.582213431512386, 1.4283514400589024, 1.4920599378075332, 1.5420848579552635,
    1.4869161363973418, 1.5567956143964654, 1.3535472530129005, 1.5752104208269397,
    0.9943950634369884, 0.0, 0.0, 0.5650213851026064, 0.0, 1.2149420751338045, 0.0,
    0.4050043012065064, 0.04347170445852058, 0.0, 1.2790379357299606, 0.0, 0.0, 1.0904824766215866,
    0.0, 0.9821870874896931, 0.0, 0.057696099199948954, 0.7702426080944411, 0.0,
    1.1507051075825994, 0.0, 0.5760749632743943, 0.25321660546002883, 0.0, 0.0, 0.0,
    0.3278545267860821, 0.47454217815981814, 0.0, 0.0, 0.0, 0.14552597641627696,
    0.48874508785512455, 0.5028169475988764, 0.0},
nndsvda_H = {1.4839772797715665, 1.4822407630430734, 1.5155215510894335, 1.4670138111377533,
    1.582213431512386, 1.4283514400589024, 1.4920599378075332, 1.5420848579552635,
    1.4869161363973418, 1.5567956143964654, 1.3535472530129005, 1.5752104208269397,
    0.9943950634369884, 1.3210873574701856, 1.3210873574701856, 0.5650213851026064,
    1.3210873574701856, 1.2149420751338045, 1.3210873574701856, 0.4050043012065064,
    0.04347170445852058, 1.3210873574701856, 1.2790379357299606, 1.3210873574701856,
    1.3210873574701856, 1.0904824766215866, 1.3210873574701856, 0.9821870874896931,
    1.3210873574701856, 0.057696099199948954, 0.7702426080944411, 1.3210873574701856,
    1.1507051075825994, 1.3210873574701856, 0.5760749632743943, 0.25321660546002883,
    1.3210873574701856, 1.3210873574701856, 1.3210873574701856, 0.3278545267860821,
    0.47454217815981814, 1.3210873574701856, 1.3210873574701856, 1.3210873574701856,
    0.14552597641627696, 0.48874508785512455, 0.5028169475988764, 1.3210873574701856},
cd = { err = 1.9600503968114966, n_iter = 200,
  H = {0.7929846962271222, 0.5740399078698466, 1.4337096489842511, 0.0, 1.4408681502653402,
      0.33956691662658745, 0.9617294303392734, 1.2277321195180604, 0.13162338593217512,
      1.4965007338985903, 0.0, 1.1669114874548787, 1.7071186897513655, 0.16145403750267026,
      0.5561613377917525, 1.0521968993082966, 0.0, 1.7678755195434073, 0.0, 1.068638429869203,
      0.6429579275233771, 0.04345978046512168, 1.6306329266875674, 0.0, 0.0, 1.513773086477238,
      0.0, 1.0586382083011325, 0.6689386370823043, 0.21294413659153855, 1.423506709254468, 0.0,
      1.3454983171194514, 0.3594128483437374, 0.4761028038764221, 1.1849453342809964,
      0.10588594328771839, 0.0, 1.1228790831728375, 0.044295483826631434, 0.9561757465567587, 0.0,
      0.0, 0.7026532299551004, 0.05052670687073649, 1.2587088651305096, 0.0, 0.3709306200692272},
  W = {0.7345437665439718, 0.7419601726884836, 0.0, 0.542651267489329, 1.6201849429880402, 0.0,
      0.8666959921104388, 0.15894286963857207, 0.0, 0.16349902846274092, 0.7032727514015478,
      0.23608388363621097},
  T = {0.4355398655259629, 0.41656580629313583, 0.01886252995110863, 0.2547108356297668,
      0.8414315749578991, 0.030914322679390937, 0.48663883025209587, 0.10838047917079127,
      0.005938757306921818, 0.12872509168627985, 0.40839667574686955, 0.17498489930155345,
      0.01656302446093176, 0.5613062193289385, 0.48737129733283735, 0.03662945855170159,
      0.0008032398052509807, 0.868088684953814, 0.1506508020180915, 0.8855583264974454}},
cd_tight = { err = 1.945112769603291, n_iter = 3935,
  H = {0.8828316638147479, 0.36517269639444416, 1.3380386058002043, 0.0, 1.254283773423658,
      0.4432968774299725, 0.7474740533551654, 1.2128484288179953, 0.0, 1.3394231492258177, 0.0,
      0.9693581384799025, 1.608832317836217, 0.28018761267400655, 0.4868522443169958,
      1.285410880124192, 0.0, 1.7989196422968246, 0.00506352866705209, 0.9729743219815966,
      0.8639159670250504, 0.043625130533100596, 1.7979621251132203, 0.0, 0.0, 1.5166662966564544,
      0.0, 0.8946910186627012, 0.71581786935571, 0.11630985500646517, 1.5128961846831652, 0.0,
      1.228143150446404, 0.3728666777896767, 0.3159117443485947, 1.2611974406549589,
      0.12353115763932494, 0.0, 1.2295357417661983, 0.00544816132931093, 0.9850874756532573, 0.0,
      0.0, 0.7791877264568426, 0.06232552656687397, 1.3061928913193106, 0.0, 0.36795953836885514},
  W = {0.9706809714004907, 0.6382191688531547, 0.0, 0.3676032263882899, 1.4115137150754975, 0.0,
      1.1275686194386736, 0.49355648004064706, 0.0, 0.20736956366450698, 0.6851075320953095,
      0.20340368119039132},
  T = {0.5424043484516821, 0.36465207333610267, 0.025493968186794672, 0.18798215585676267,
      0.7555009578883564, 0.025931258838607876, 0.6144330400771868, 0.25769092716539943, 0.0,
      0.1522593300054138, 0.3986019876473645, 0.16377333227902496, 0.06073209014427832,
      0.5675015656913963, 0.4307893718872666, 0.012892838599597618, 0.19127165004849833,
      0.8193863974380802, 0.04968558171194742, 0.6799859960125547}},
cd_reg = { err = 2.142233001255311, n_iter = 200,
  H = {0.7054195025958296, 0.2059911799009627, 1.474735256836639, 0.0, 1.330906898781587,
      0.3383602453067519, 0.4787833657948854, 1.2145743206793291, 0.0, 1.5125660232983642, 0.0,
      0.8196271696834706, 1.343299826691532, 0.18802549939508886, 0.25209393033446686,
      1.0328550202818185, 0.0, 1.5442441432322163, 0.0, 0.7169187124534386, 0.6066092646231597,
      0.042090823380694975, 1.595411406743908, 0.0, 0.0, 1.5296293367681724, 0.048575196234912264,
      0.8971791544219481, 0.7334332515305192, 0.09348255662694366, 1.4920186451136164, 0.0,
      1.2582976952701803, 0.40062920403044217, 0.2939859118976028, 1.2525624553878847, 0.0,
      0.09891287777937986, 0.7826697806858391, 0.29756630795609124, 0.0, 0.0, 0.0,
      0.4915418215088874, 0.4883735156238765, 0.27263160825463595, 0.0, 0.0},
  W = {1.2160615181060108, 0.7638480849832672, 0.028119270641497232, 0.0, 1.6698039588356233, 0.0,
      1.2122658457967324, 0.0, 0.13587063993940515, 0.23851090513652656, 0.6660694880054262, 0.0},
  T = {0.6570211062833589, 0.4312245131834272, 0.06286587560050334, 0.0, 0.8872122401634763,
      0.03410641768565168, 0.6578904189590674, 0.0, 0.11688334469022965, 0.16863638218539134,
      0.3818077035551421, 0.0, 0.019913080351140058, 0.6415021669731849, 0.433559680253019,
      0.3010324615725105, 0.6289059846830917, 0.8758129493806809, 0.01661644707142993,
      0.4313452674275274}},
mu = { err = 2.0712643215059527, n_iter = 160,
  H = {1.0494821251991255, 1.899736061815418, 4.726506038998276e-07, 2.8275134361489482,
      0.23835757359677084, 2.0161293198081096, 1.2293399884249545, 0.14575650494455356,
      2.6782416082689067, 2.3704401224990344e-05, 2.708776280231527, 0.9316846190311694,
      0.016402421037349926, 2.0503002515817688, 1.6222800703559415, 0.7866128101380556,
      2.673958815219774, 7.018812561662116e-08, 2.406241362969578, 0.8745384822016498,
      1.3842213321645667, 2.4127416653857665, 3.0552549183653745e-12, 2.604638190057287,
      2.0420780094615076, 2.464988564552341e-11, 2.1448619448980106, 0.7131019330406433,
      1.2421988986893182, 1.741559988276204, 7.636060758918472e-08, 2.2056264555232565,
      0.28453273756735475, 1.703128613856442, 1.338042441284522, 0.43098769196812486,
      1.733039384613737, 0.8002321462196175, 0.4468381728281589, 0.02546156614216212,
      0.14069322476665344, 0.6018353139954168, 1.2131426953056133, 1.5393943510645938,
      0.11121272557553827, 0.013284774946663882, 9.278645147870367e-05, 0.7819370953023775},
  W = {0.031047824458199275, 0.1926291790761217, 0.8131312928591955, 0.1101358537253147,
      3.9703475350969554e-05, 0.9734362936438062, 0.2981728506122782, 0.4029123277444148,
      0.25711227979067935, 0.26022654971468384, 5.301596568490721e-08, 6.160504621034806e-06},
  T = {0.03579191707843225, 0.12017398752682383, 0.4340191635218847, 0.06690692258786292,
      0.005827307262306949, 0.5144524157517458, 0.1786199819972172, 0.2193659661447977,
      0.15497222023750978, 0.15697229647465552, 0.014020550605856144, 0.009600071582747251,
      0.3512941002041436, 0.015170927656403332, 0.12996904457738334, 0.21802529803804724,
      0.20478677547920857, 0.009324153601373713, 0.6812102210186904, 0.0064552755941918736}},
mu_kl = { err = 2.838555676672684, n_iter = 200,
  H = {1.936937555439808, 1.124544174125115, 2.9105589661063866e-11, 3.125758871412483,
      0.0002589663909233941, 2.659512263251698, 0.34315740067381223, 0.6819362605456077,
      2.4779182303958938, 1.412672756108578e-07, 3.4265656054114975, 0.12459942981819261,
      1.2339451143314136e-06, 2.553005442561799, 0.7986000828393486, 1.004112489232137,
      2.0862588515317526, 6.956855519266832e-10, 2.9068688531048066, 0.3849188307450831,
      1.7059995462458653, 1.521461359084531, 1.2449454056018705e-14, 2.755305539168751,
      1.752767797005302, 3.7111535096243254e-16, 2.6054695878383147, 0.13015265926534408,
      1.9002588649834826, 1.088978818408801, 1.3728244030421727e-13, 2.4137616124206076,
      1.8205644397100204e-05, 2.4140277443147835, 0.27545990422769623, 0.7639225932922745,
      0.8055865758745624, 0.5680944891826868, 0.9119891423012395, 0.0017563114642629527,
      0.005235885932067303, 0.762246857908743, 1.2116248952312143, 1.005457232636416,
      5.699492074179976e-07, 0.011872748860053916, 0.8541270658183168, 0.6689919938442488},
  W = {0.17211105632977095, 0.044763292904533805, 0.7107789108085117, 0.42144139649191076,
      1.504553127183548e-14, 0.8972155161055725, 0.6846077990511493, 7.183433392159253e-09,
      0.18170569675082437, 0.3436191219187406, 1.98300552008761e-11, 2.5893747426341648e-14},
  T = {0.11176127211194208, 0.04608248832131332, 0.37829494576247763, 0.2270008626676355,
      0.004899173665091688, 0.4762990904337515, 0.377356597826099, 0.03242176809932162,
      0.1175474148440354, 0.20008886031983636, 0.024163938664747246, 0.0014325528895730924,
      0.30386639593366443, 0.10344431745736687, 0.02817577568267871, 0.3463953356730875,
      0.34413200704879543, 0.0010930696714701032, 0.5204543991103482, 0.05673895353872902}},
}

local i = luma.arange(1, 30)
local j = luma.arange(1, 12):t()
local X = (i * 0.7 + j * 1.3):sin():abs():mul((i - (i / 3):floor() * 3) + 1)
  + (i * j * 0.2):cos():pow(2) * 0.1
local Xn = X:sub(1, 5) * 0.5 + 0.1

local function fit(params)
  local m = NMF(params)
  local W
  capture_warnings(function() W = m:fit_transform(X) end)
  return m, W
end

describe("luma.decomposition.NMF", function()
  it("initializes by NNDSVD as scikit-learn (nndsvd, nndsvda)", function()
    -- the part's initialization, which fit runs first
    local initialize = require("luma.decomposition.nmf").initialize
    local W0, H0 = initialize(NMF{ n_components = 4, init = "nndsvd" }, X, 4)
    assert.matrix_near(rows(REF.nndsvd_W, 4), W0:sub(1, 3), 1e-10)
    assert.matrix_near(rows(REF.nndsvd_H, 12), H0, 1e-10)
    local _, Ha = initialize(NMF{ n_components = 4, init = "nndsvda" }, X, 4)
    assert.matrix_near(rows(REF.nndsvda_H, 12), Ha, 1e-10)
  end)

  for _, case in ipairs{
    { "cd", { solver = "cd", init = "nndsvd" } },
    { "cd_tight", { solver = "cd", init = "nndsvd", tol = 1e-10, max_iter = 5000 } },
    { "cd_reg", { solver = "cd", init = "nndsvd", alpha_W = 0.01, l1_ratio = 0.5 } },
    { "mu", { solver = "mu", init = "nndsvda" } },
    { "mu_kl", { solver = "mu", init = "nndsvda", beta_loss = "kullback-leibler" } },
  } do
    local name, params = case[1], case[2]
    it("matches scikit-learn (" .. name .. ")", function()
      params.n_components = 4
      local ref = REF[name]
      local m, W = fit(params)
      assert.equal(ref.n_iter, m.n_iter)
      assert.near(ref.err, m.reconstruction_err, 1e-6 * ref.err)
      assert.matrix_near(rows(ref.H, 12), m.components, 1e-6)
      assert.matrix_near(rows(ref.W, 4), W:sub(1, 3), 1e-6)
      local T
      capture_warnings(function() T = m:transform(Xn) end)
      assert.matrix_near(rows(ref.T, 4), T, 1e-6)
    end)
  end

  it("never increases the loss with multiplicative updates (Frobenius and KL)", function()
    for _, loss in ipairs{ "frobenius", "kullback-leibler" } do
      local m = fit{ n_components = 3, solver = "mu", beta_loss = loss, init = "random", seed = 4,
        tol = 0, max_iter = 150 }
      local h = m.loss_history
      for t = 2, h:rows() do
        assert.is_true(h:get(t, 1) <= h:get(t - 1, 1) * (1 + 1e-12),
          string.format("%s: the loss rose at iteration %d", loss, t))
      end
    end
  end)

  it("recovers an exactly factorizable matrix (cd, als; mu converges slowly)", function()
    local g = luma.random.Generator(12)
    local W0, H0 = g:uniform(40, 3), g:uniform(3, 15)
    local V = W0 * H0
    for _, solver in ipairs{ "cd", "mu", "als" } do
      local m = NMF{ n_components = 3, solver = solver, init = "nndsvda", tol = 1e-12, max_iter = 3000,
        seed = 0 }
      local W
      capture_warnings(function() W = m:fit_transform(V) end)
      assert.is_true(W:min() >= 0 and m.components:min() >= 0)
      assert.is_true(m.reconstruction_err / V:norm() < (solver == "mu" and 5e-3 or 1e-6),
        solver .. ": relative error " .. m.reconstruction_err / V:norm())
      assert.matrix_near(m:inverse_transform(W), W * m.components, 1e-15)
    end
  end)

  it("is reproducible with a seed (random init, shuffled coordinate descent)", function()
    local a = fit{ n_components = 3, init = "random", shuffle = true, seed = 8 }
    local b = fit{ n_components = 3, init = "random", shuffle = true, seed = 8 }
    assert.matrix_near(a.components, b.components, 0)
  end)

  it("sweeps bit-identically with 1 and 2 threads (the native kernel)", function()
    -- (whole fits can differ in the last bits: OpenBLAS's products
    -- depend on its thread count)
    local native = require("luma.decomposition.native")
    local g = luma.random.Generator(3)
    local W0, Ht = g:uniform(5000, 6), g:uniform(40, 6)
    local V = g:uniform(5000, 40)
    local HHt, XHt = Ht:t() * Ht, V * Ht
    local saved = luma.config().threads
    local out, violation = {}, {}
    for _, threads in ipairs{ 1, 2 } do
      luma.config{ threads = threads }
      out[threads] = W0:copy()
      violation[threads] = native.cd_sweep(out[threads], HHt, XHt)
    end
    luma.config{ threads = saved }
    assert.matrix_near(out[1], out[2], 0)
    assert.equal(violation[1], violation[2])
  end)

  it("fuses X H^T into the sweep: cd_sweep's result, bit-identical with 1 and 2 threads", function()
    -- cd_fused_sweep(X, Ht, W, HHt, l1) computes X Ht - l1 chunk by chunk
    -- (131 rows of a 1000-column X per chunk: 16 chunks, the last 35 rows)
    -- and sweeps; the same with X given as a transposed view (the H step)
    local native = require("luma.decomposition.native")
    local g = luma.random.Generator(4)
    local V, Ht, W0 = g:uniform(2000, 1000), g:uniform(1000, 6), g:uniform(2000, 6)
    local HHt = Ht:t() * Ht
    local expect = W0:copy()
    local violation = native.cd_sweep(expect, HHt, V * Ht - 0.25)
    local saved = luma.config().threads
    local out, viol = {}, {}
    for _, threads in ipairs{ 1, 2 } do
      luma.config{ threads = threads }
      out[threads] = W0:copy()
      viol[threads] = native.cd_fused_sweep(V, Ht, out[threads], HHt, 0.25)
    end
    luma.config{ threads = saved }
    assert.matrix_near(expect, out[1], 1e-9)
    assert.near(violation, viol[1], 1e-9 * violation)
    assert.matrix_near(out[1], out[2], 0)
    assert.equal(viol[1], viol[2])
    local Vt = V:t():copy()
    local W1 = W0:copy()
    assert.near(violation, native.cd_fused_sweep(Vt:t(), Ht, W1, HHt, 0.25), 1e-9 * violation)
    assert.matrix_near(expect, W1, 1e-9)
    -- X without columns: X Ht = 0, grad = W HHt (here W), every entry to 0
    local We = luma.ones(5, 2)
    assert.equal(10, native.cd_fused_sweep(luma.zeros(5, 0), luma.zeros(0, 2), We, luma.eye(2)))
    assert.equal(0, We:abs():sum())
  end)

  describe("bad input", function()
    it("refuses negative values in fit and transform", function()
      local bad = X:copy()
      bad:set(4, 6, -0.5)
      errors_with("bad argument #1 to 'fit' %(NMF: X must be non%-negative, X%[4%]%[6%] = %-0.5%)",
        function() NMF{ n_components = 2 }:fit(bad) end)
      local m = fit{ n_components = 2 }
      errors_with("bad argument #1 to 'transform' %(NMF: X must be non%-negative",
        function() m:transform(bad) end)
    end)
    it("refuses NaN", function()
      local bad = X:copy()
      bad:set(2, 2, 0 / 0)
      errors_with("NMF: X has a non%-finite element, nan at row 2, column 2",
        function() NMF{ n_components = 2 }:fit(bad) end)
    end)
    it("refuses combinations it cannot run", function()
      errors_with("solver \"cd\" handles beta_loss \"frobenius\" only",
        function() NMF{ n_components = 2, beta_loss = "kullback-leibler" }:fit(X) end)
      errors_with("init \"nndsvd\" needs n_components <= min%(n_samples, n_features%) = 12, got 13",
        function() NMF{ n_components = 13, init = "nndsvd" }:fit(X) end)
      errors_with("init \"custom\" needs W",
        function() NMF{ n_components = 2, init = "custom" }:fit(X) end)
      errors_with("NMF: parameter 'l1_ratio' must be", function() NMF{ l1_ratio = 2 } end)
    end)
    it("refuses an inverse_transform of the wrong width", function()
      local m = fit{ n_components = 2 }
      errors_with("bad argument #1 to 'inverse_transform' %(X has 3 columns but luma.decomposition.NMF was fitted on 2%)",
        function() m:inverse_transform(luma.zeros(2, 3)) end)
    end)
  end)
end)

