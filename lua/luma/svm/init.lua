--- luma.svm: support vector machines (notes 000 Ch. 8, 001 §G, 002 §1.3
-- L8-L11 and §1.6, 003 §1.16, 004 Ch. 12), with scikit-learn's names.
--
-- The parts: svc (SVC, NuSVC), svr (SVR, NuSVR), one_class (OneClassSVM),
-- all solved by the one SMO solver of luma.svm.native (src/ml/svm/smo.c);
-- linear (LinearSVC, LinearSVR, coordinate descent); variants (the notes'
-- own forms: the L2-SVM, the no-bias kernel SVM by SDCA, the primal
-- subgradient method, the kernel nearest prototype, the SV-count
-- leave-one-out bound and the dense QP forms); platt (probabilities) and
-- common (shared checks) are internal.  This file merges the public names.
-- SPDX-License-Identifier: MIT
local luma = require("luma")

local svm = {}
local names = {}
for _, part in ipairs({ "luma.svm.svc", "luma.svm.svr", "luma.svm.one_class", "luma.svm.linear",
                        "luma.svm.variants" }) do
  for name, value in pairs(require(part)) do
    svm[name] = value
    names[#names + 1] = name
  end
end
table.sort(names)

luma.doc.set(svm, { name = "luma.svm",
  doc = "Support vector machines: " .. table.concat(names, ", ") .. ". Kernels by name "
    .. "(\"linear\", \"poly\", \"rbf\", \"sigmoid\", \"precomputed\"), luma.kernels objects or "
    .. "functions; see docs/SVM.md." })

return svm
