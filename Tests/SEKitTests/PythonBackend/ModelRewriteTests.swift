import Foundation
import Testing
@testable import SEKit

/// The worker's rewrite of a model's Elu nodes (`_elu_as_exp` in `sekit_metric_worker.py`), which
/// `sekit enhance --model` runs instead of ONNX Runtime's Elu kernel: `Max(x, alpha·(Exp(Min(x, 0)) − 1))`
/// for 0 < alpha ≤ 1, `Relu(x) + alpha·(Exp(Min(x, 0)) − 1)` otherwise; either equals Elu.
@Suite(.enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct ModelRewriteTests {
    @Test func eluIsRewrittenAndEqualsOnnxRuntimesEluForEveryAlpha() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let worker = PythonEnvironment.projectRoot.appendingPathComponent("Sources/SEKit/Resources/sekit_metric_worker.py")
        let script = """
        import importlib.util, sys
        import numpy as np, onnx, onnxruntime
        from onnx import helper, TensorProto
        spec = importlib.util.spec_from_file_location("worker", sys.argv[1])
        worker = importlib.util.module_from_spec(spec); spec.loader.exec_module(worker)
        x = np.concatenate([np.linspace(-30, 30, 6001), [-1e-8, 1e-8, -3e-4, 3e-4, 0.0, -0.0, -80.0, 80.0]])
        x = x.astype(np.float32).reshape(1, -1)
        for alpha in (1.0, 0.5, 2.0):
            node = helper.make_node("Elu", ["x"], ["y"], alpha=alpha)
            graph = helper.make_graph([node], "elu", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, x.shape[1]])],
                                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, x.shape[1]])])
            path = f"{sys.argv[2]}/elu-{alpha}.onnx"
            onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
            rewritten = worker._elu_as_exp(path)
            ops = sorted({n.op_type for n in onnx.load_from_string(rewritten).graph.node})
            ours = worker._single_threaded(rewritten).run(None, {"x": x})[0]
            theirs = worker._single_threaded(path).run(None, {"x": x})[0]
            print(alpha, ",".join(ops), float(np.abs(ours - theirs).max()), bool((ours[x > 0] == x[x > 0]).all()))
        """
        let out = try PythonReference.run(script, arguments: [worker.path, folder.url.path])
        let lines = out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines.count == 3, "\(out)")
        let ops = ["1.0": "Exp,Max,Min,Sub", "0.5": "Exp,Max,Min,Mul,Sub", "2.0": "Add,Exp,Min,Mul,Relu,Sub"]
        for line in lines where line.count == 4 {
            #expect(line[1] == ops[line[0]], "alpha \(line[0]): \(line[1])")
            // Within a few units in the last place of values of magnitude at most alpha (the exponential's rounding).
            #expect(try #require(Double(line[2])) <= 1e-6, "alpha \(line[0]): \(line[2]) from ONNX Runtime's Elu")
            #expect(line[3] == "True", "alpha \(line[0]): x itself for every x > 0")
        }
    }
}
